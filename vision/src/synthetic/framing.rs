//! Placing a synthetic camera over the table the way a player would: south of it, tilted,
//! pulled back until the whole table is in frame.

use calibration::{Camera, CameraPose, ImageSize, Intrinsics, TablePoint3, TableSize};
use nalgebra::Vector3;
use rules::geometry::TablePoint;
use rules::units::Degrees;

/// A camera `tilt` from vertical, with an ideal lens of `field_of_view` horizontally, as close
/// as it can be while the whole table shows with a margin of 3 % of the image all round.
pub fn framing_camera(
    table: TableSize,
    image_size: ImageSize,
    tilt: Degrees,
    field_of_view: Degrees,
) -> Camera {
    framing_camera_for(
        table,
        Intrinsics::from_field_of_view(image_size, field_of_view),
        tilt,
    )
}

/// The same through any lens: a barrel lens pulls the table's corners in, so the camera comes
/// closer than an ideal lens of the same field of view would.
pub fn framing_camera_for(table: TableSize, intrinsics: Intrinsics, tilt: Degrees) -> Camera {
    framing_camera_from(table, intrinsics, tilt, Degrees(-90.0))
}

/// The same from any side: the camera stands towards `bearing` from the table's centre
/// (degrees counter-clockwise from +x; −90° is south, the near edge), as a board held up to
/// the camera is seen from one side and another.
pub fn framing_camera_from(
    table: TableSize,
    intrinsics: Intrinsics,
    tilt: Degrees,
    bearing: Degrees,
) -> Camera {
    // The picture's top towards the table's far edge, from whichever side.
    framing(
        (TablePoint::origin(), table),
        intrinsics,
        (tilt, bearing),
        Vector3::y(),
    )
}

/// A camera hung over one part of the table, the rectangle from `area.0` (its south-west
/// corner) `area.1` wide and deep, as one of several cameras on a rig along a long table frames
/// its share: it stands towards `bearing` from the share's centre, `tilt` from vertical, the
/// picture's top the way it looks (from the west end, the picture's long side spans the
/// table's depth).
pub fn framing_camera_over(
    area: (TablePoint, TableSize),
    intrinsics: Intrinsics,
    tilt: Degrees,
    bearing: Degrees,
) -> Camera {
    let b = bearing.0.to_radians();
    framing(
        area,
        intrinsics,
        (tilt, bearing),
        Vector3::new(-b.cos(), -b.sin(), 0.0),
    )
}

/// As close as the camera can be while `area` shows whole, from `(tilt, bearing)`, the picture's
/// top towards `up`.
fn framing(
    area: (TablePoint, TableSize),
    intrinsics: Intrinsics,
    (tilt, bearing): (Degrees, Degrees),
    up: Vector3<f64>,
) -> Camera {
    let (origin, table) = area;
    let image_size = intrinsics.image_size;
    let target = TablePoint3::new(
        origin.x + table.width / 2.0,
        origin.y + table.depth / 2.0,
        0.0,
    );
    let place = |distance: f64| {
        let (t, b) = (tilt.0.to_radians(), bearing.0.to_radians());
        let eye = TablePoint3::new(
            target.x + distance * t.sin() * b.cos(),
            target.y + distance * t.sin() * b.sin(),
            distance * t.cos(),
        );
        Camera {
            intrinsics,
            pose: CameraPose::looking_at(eye, target, up),
        }
    };
    let margin = 0.03 * f64::from(image_size.width.min(image_size.height));
    let fits = |camera: &Camera| {
        [
            (0.0, 0.0),
            (table.width, 0.0),
            (table.width, table.depth),
            (0.0, table.depth),
        ]
        .iter()
        .all(|&(x, y)| {
            camera
                .project(&TablePoint3::new(origin.x + x, origin.y + y, 0.0))
                .is_some_and(|p| {
                    p.x >= margin
                        && p.y >= margin
                        && p.x <= f64::from(image_size.width) - margin
                        && p.y <= f64::from(image_size.height) - margin
                })
        })
    };
    let (mut near, mut far) = (1.0, 2000.0);
    for _ in 0..60 {
        let mid = (near + far) / 2.0;
        if fits(&place(mid)) {
            far = mid
        } else {
            near = mid
        }
    }
    place(far)
}

/// Cameras hung side by side on a rig along a long table, one a lens: each over an equal share
/// of the table's length reaching `overlap` past its seams, `tilt` from vertical, standing
/// towards the table's west end from its share's centre, so that its picture's long side spans
/// the table's depth.
pub fn rig_cameras(
    table: TableSize,
    lenses: &[Intrinsics],
    overlap: rules::units::Inches,
    tilt: Degrees,
) -> Vec<Camera> {
    let share = table.width / lenses.len().max(1) as f64;
    lenses
        .iter()
        .enumerate()
        .map(|(k, lens)| {
            let from = (share * k as f64 - overlap.0).max(0.0);
            let to = (share * (k + 1) as f64 + overlap.0).min(table.width);
            let area = (
                TablePoint::new(from, 0.0),
                TableSize {
                    width: to - from,
                    depth: table.depth,
                },
            );
            framing_camera_over(area, *lens, tilt, Degrees(180.0))
        })
        .collect()
}
