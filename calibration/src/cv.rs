//! The few OpenCV calls calibration needs (homography, PnP, the focal length), with the
//! conversions to and from nalgebra kept in one place.

use nalgebra::{Matrix3, Rotation3, Vector3};
use opencv::calib3d;
use opencv::core::{
    Mat, MatTraitConst, Point2d, Point2f, Point3d, Point3f, Size, TermCriteria, TermCriteria_Type,
    Vector,
};

use crate::camera::{CameraPose, Distortion, Intrinsics, TablePoint3};
use crate::pixels::{ImageSize, PixelPoint, Pixels};

/// An OpenCV call failed (it should not, on points that passed our own checks).
#[derive(Debug, thiserror::Error)]
#[error("OpenCV: {0}")]
pub struct CvError(String);

impl From<opencv::Error> for CvError {
    fn from(e: opencv::Error) -> CvError {
        CvError(e.message)
    }
}

/// The homography taking plan points (x, y) to pixels, by least squares; `None` if degenerate.
pub fn homography(
    plan: &[(f64, f64)],
    pixels: &[PixelPoint],
) -> Result<Option<Matrix3<f64>>, CvError> {
    let src: Vector<Point2d> = plan.iter().map(|&(x, y)| Point2d::new(x, y)).collect();
    let dst: Vector<Point2d> = pixels.iter().map(|p| Point2d::new(p.x, p.y)).collect();
    let h = calib3d::find_homography(&src, &dst, &mut Mat::default(), 0, 3.0)?;
    if h.rows() != 3 || h.cols() != 3 {
        return Ok(None);
    }
    let mut m = Matrix3::zeros();
    for r in 0..3 {
        for c in 0..3 {
            m[(r, c)] = *h.at_2d::<f64>(r as i32, c as i32)?;
        }
    }
    Ok(Some(m))
}

fn camera_matrix(intrinsics: &Intrinsics) -> Result<Mat, CvError> {
    Ok(Mat::from_slice_2d(&intrinsics.matrix())?)
}

fn distortion_mat(d: &Distortion) -> Result<Mat, CvError> {
    Ok(Mat::from_slice_2d(&[d.coefficients()])?)
}

fn vector3(m: &Mat) -> Result<Vector3<f64>, CvError> {
    let at = |i: i32| -> Result<f64, CvError> { Ok(*m.at::<f64>(i)?) };
    Ok(Vector3::new(at(0)?, at(1)?, at(2)?))
}

fn pose_from(rvec: &Mat, tvec: &Mat) -> Result<CameraPose, CvError> {
    Ok(CameraPose {
        rotation: Rotation3::from_scaled_axis(vector3(rvec)?),
        translation: vector3(tvec)?,
    })
}

/// The camera pose that best explains table points seen at pixels (OpenCV's iterative PnP,
/// Levenberg–Marquardt on the reprojection error).
pub fn solve_pose(
    table: &[TablePoint3],
    pixels: &[PixelPoint],
    intrinsics: &Intrinsics,
) -> Result<CameraPose, CvError> {
    let object: Vector<Point3d> = table.iter().map(|p| Point3d::new(p.x, p.y, p.z)).collect();
    let image: Vector<Point2d> = pixels.iter().map(|p| Point2d::new(p.x, p.y)).collect();
    let (mut rvec, mut tvec) = (Mat::default(), Mat::default());
    let k = camera_matrix(intrinsics)?;
    let d = distortion_mat(&intrinsics.distortion)?;
    calib3d::solve_pnp(
        &object,
        &image,
        &k,
        &d,
        &mut rvec,
        &mut tvec,
        false,
        calib3d::SOLVEPNP_ITERATIVE,
    )?;
    pose_from(&rvec, &tvec)
}

/// One focal length (square pixels, centred axis, no distortion) and one pose per view, by
/// OpenCV's `calibrateCamera`, starting from `guess`: what one view of a few anchors can pin
/// down. Returns the refined intrinsics, the poses and the RMS reprojection error.
pub fn calibrate_focal(
    views: &[(Vec<TablePoint3>, Vec<PixelPoint>)],
    guess: &Intrinsics,
) -> Result<(Intrinsics, Vec<CameraPose>, Pixels), CvError> {
    let object: Vector<Vector<Point3f>> = views
        .iter()
        .map(|(t, _)| {
            t.iter()
                .map(|p| Point3f::new(p.x as f32, p.y as f32, p.z as f32))
                .collect()
        })
        .collect();
    let image: Vector<Vector<Point2f>> = views
        .iter()
        .map(|(_, px)| {
            px.iter()
                .map(|p| Point2f::new(p.x as f32, p.y as f32))
                .collect()
        })
        .collect();
    let size = Size::new(
        guess.image_size.width as i32,
        guess.image_size.height as i32,
    );
    let mut k = camera_matrix(guess)?;
    let mut d = distortion_mat(&guess.distortion)?;
    let (mut rvecs, mut tvecs) = (Vector::<Mat>::new(), Vector::<Mat>::new());
    let flags = calib3d::CALIB_USE_INTRINSIC_GUESS
        | calib3d::CALIB_FIX_K3
        | calib3d::CALIB_FIX_PRINCIPAL_POINT
        | calib3d::CALIB_FIX_ASPECT_RATIO
        | calib3d::CALIB_ZERO_TANGENT_DIST
        | calib3d::CALIB_FIX_K1
        | calib3d::CALIB_FIX_K2;
    let criteria = TermCriteria::new(
        TermCriteria_Type::COUNT as i32 + TermCriteria_Type::EPS as i32,
        100,
        1e-12,
    )?;
    let rms = calib3d::calibrate_camera(
        &object, &image, size, &mut k, &mut d, &mut rvecs, &mut tvecs, flags, criteria,
    )?;
    let at = |r: i32, c: i32| -> Result<f64, CvError> { Ok(*k.at_2d::<f64>(r, c)?) };
    let coefficients: Vec<f64> = (0..d.total() as i32)
        .map(|i| d.at::<f64>(i).copied())
        .collect::<Result<_, _>>()?;
    let intrinsics = Intrinsics {
        image_size: ImageSize {
            width: guess.image_size.width,
            height: guess.image_size.height,
        },
        focal_x: Pixels(at(0, 0)?),
        focal_y: Pixels(at(1, 1)?),
        principal_point: PixelPoint::new(at(0, 2)?, at(1, 2)?),
        distortion: Distortion::from_coefficients(&coefficients),
    };
    let poses = rvecs
        .iter()
        .zip(tvecs.iter())
        .map(|(r, t)| pose_from(&r, &t))
        .collect::<Result<_, _>>()?;
    Ok((intrinsics, poses, Pixels(rms)))
}
