//! Where frames come from: a webcam, a video file, images, or the synthetic table — all behind
//! one trait, so the pipeline and the app never care which.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use calibration::Camera;
use opencv::core::{Mat, MatTraitConst};
use opencv::prelude::{VideoCaptureTrait, VideoCaptureTraitConst};
use opencv::videoio::{self, VideoCapture};

use crate::error::VisionError;
use crate::image_io::read_image;
use crate::synthetic::{Effects, Renderer, SyntheticTable};

/// One picture from a source.
#[derive(Clone, Debug)]
pub struct Frame {
    /// BGR, 8 bits a channel.
    pub image: Mat,
    /// Frames delivered before this one.
    pub index: u64,
    /// When it was taken, from the start of the source.
    pub time: Duration,
}

/// Why a source gave no frame.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The source could not be opened.
    #[error("{source_name}: cannot open: {reason}")]
    Open {
        /// The device or file.
        source_name: String,
        /// Why.
        reason: String,
    },
    /// The camera stopped delivering (unplugged, in use elsewhere); it is retried.
    #[error("{source_name}: the camera stopped delivering frames ({reason}); retrying every {}s", retry.as_secs())]
    Lost {
        /// The device.
        source_name: String,
        /// What it said.
        reason: String,
        /// How often it is retried.
        retry: Duration,
    },
    /// A frame could not be read or decoded.
    #[error(transparent)]
    Frame(#[from] VisionError),
}

/// Something that delivers frames.
pub trait FrameSource {
    /// A name for people: "webcam 0 (HD Pro Webcam C920)", "game.mp4".
    fn name(&self) -> String;
    /// The next frame; `Ok(None)` at the end of a file or sequence.
    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError>;
    /// How many times a looping source has started again by the last frame it gave (a loop
    /// is a new game: its units jumping back to their start are no moves).
    fn pass(&self) -> u64 {
        0
    }
}

/// One image file, delivered once.
pub struct ImageFile {
    path: PathBuf,
    done: bool,
}

impl ImageFile {
    /// The image at `path` (read when the frame is asked for).
    pub fn new(path: &Path) -> ImageFile {
        ImageFile {
            path: path.to_owned(),
            done: false,
        }
    }
}

impl FrameSource for ImageFile {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(None);
        }
        Ok(Some(Frame {
            image: read_image(&self.path)?,
            index: 0,
            time: Duration::ZERO,
        }))
    }
}

/// The images of a folder (or a list), in name order, at a nominal frame rate.
pub struct ImageSequence {
    name: String,
    paths: Vec<PathBuf>,
    next: usize,
    frame_time: Duration,
}

impl ImageSequence {
    /// The PNG and JPEG files of a folder, sorted by name.
    pub fn folder(dir: &Path, fps: f64) -> Result<ImageSequence, SourceError> {
        let open_error = |reason: String| SourceError::Open {
            source_name: dir.display().to_string(),
            reason,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| open_error(e.to_string()))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    matches!(
                        e.to_ascii_lowercase().as_str(),
                        "png" | "jpg" | "jpeg" | "bmp" | "tif" | "tiff"
                    )
                })
            })
            .collect();
        if paths.is_empty() {
            return Err(open_error("no PNG, JPEG, BMP or TIFF images in it".into()));
        }
        paths.sort();
        Ok(ImageSequence::files(dir.display().to_string(), paths, fps))
    }

    /// These files, in this order.
    pub fn files(name: String, paths: Vec<PathBuf>, fps: f64) -> ImageSequence {
        ImageSequence {
            name,
            paths,
            next: 0,
            frame_time: Duration::from_secs_f64(1.0 / fps.max(0.001)),
        }
    }
}

impl FrameSource for ImageSequence {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        let Some(path) = self.paths.get(self.next) else {
            return Ok(None);
        };
        let index = self.next as u64;
        self.next += 1;
        let image = read_image(path)?;
        Ok(Some(Frame {
            image,
            index,
            time: self.frame_time * index as u32,
        }))
    }
}

/// A video file, through OpenCV (MJPG, MP4 … whatever its FFmpeg reads).
pub struct VideoFile {
    path: PathBuf,
    capture: VideoCapture,
    index: u64,
}

impl VideoFile {
    /// Open a video file.
    pub fn open(path: &Path) -> Result<VideoFile, SourceError> {
        let open_error = |reason: String| SourceError::Open {
            source_name: path.display().to_string(),
            reason,
        };
        if !path.is_file() {
            return Err(open_error("no such file".into()));
        }
        let capture =
            VideoCapture::from_file(path, videoio::CAP_ANY).map_err(|e| open_error(e.message))?;
        if !capture.is_opened().unwrap_or(false) {
            return Err(open_error("not a video OpenCV can read".into()));
        }
        Ok(VideoFile {
            path: path.to_owned(),
            capture,
            index: 0,
        })
    }
}

impl FrameSource for VideoFile {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        let mut image = Mat::default();
        let read = self.capture.read(&mut image).map_err(VisionError::from)?;
        if !read || image.empty() {
            return Ok(None);
        }
        let millis = self
            .capture
            .get(videoio::CAP_PROP_POS_MSEC)
            .unwrap_or(0.0)
            .max(0.0);
        let frame = Frame {
            image,
            index: self.index,
            time: Duration::from_secs_f64(millis / 1000.0),
        };
        self.index += 1;
        Ok(Some(frame))
    }
}

/// The synthetic table: a list of table states, each shown for some frames, rendered once and
/// then replayed (the demo table runs on any machine at any frame rate).
pub struct SyntheticSource {
    name: String,
    renderer: Renderer,
    camera: Camera,
    effects: Effects,
    states: Vec<(SyntheticTable, u64)>,
    rendered: Vec<Option<Rendered>>,
    index: u64,
    frame_time: Duration,
    looping: bool,
}

/// A state's picture, kept: whole when it is shown for many frames, compressed when for one
/// (a move made over many states of a frame each would otherwise hold 6 MB a frame at 1080p).
enum Rendered {
    Whole(Mat),
    Compressed(Vec<u8>),
}

/// The quality a state shown for a single frame is kept at: a second, fine compression.
const KEPT_QUALITY: u8 = 95;

impl SyntheticSource {
    /// States shown in turn, each for its number of frames; `looping` starts again at the end.
    pub fn new(
        name: &str,
        camera: Camera,
        effects: Effects,
        states: Vec<(SyntheticTable, u64)>,
        fps: f64,
        looping: bool,
    ) -> SyntheticSource {
        let rendered = states.iter().map(|_| None).collect();
        SyntheticSource {
            name: name.to_owned(),
            renderer: Renderer::new(),
            camera,
            effects,
            states,
            rendered,
            index: 0,
            frame_time: Duration::from_secs_f64(1.0 / fps.max(0.001)),
            looping,
        }
    }

    /// The camera the frames are seen through (the ground truth of calibration).
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Frames in one pass through the states.
    fn frames_per_pass(&self) -> u64 {
        self.states.iter().map(|(_, n)| n.max(&1)).sum()
    }

    /// The table state shown at frame `index`, if any.
    pub fn state_at(&self, index: u64) -> Option<usize> {
        let total = self.frames_per_pass();
        if total == 0 || (!self.looping && index >= total) {
            return None;
        }
        let mut at = index % total;
        self.states.iter().position(|(_, n)| {
            let n = (*n).max(1);
            if at < n {
                return true;
            }
            at -= n;
            false
        })
    }

    /// The table state `state` (for ground truth).
    pub fn state(&self, state: usize) -> Option<&SyntheticTable> {
        self.states.get(state).map(|(t, _)| t)
    }
}

impl FrameSource for SyntheticSource {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        let Some(state) = self.state_at(self.index) else {
            return Ok(None);
        };
        if self.rendered[state].is_none() {
            let (table, frames) = &self.states[state];
            let image = self.renderer.render(table, &self.camera, &self.effects)?;
            self.rendered[state] = Some(if *frames > 1 {
                Rendered::Whole(image)
            } else {
                Rendered::Compressed(crate::image_io::encode_jpeg(&image, KEPT_QUALITY)?)
            });
        }
        let image = match &self.rendered[state] {
            Some(Rendered::Whole(image)) => image.clone(),
            Some(Rendered::Compressed(bytes)) => crate::image_io::decode_image(bytes)?,
            None => Mat::default(),
        };
        let frame = Frame {
            image,
            index: self.index,
            time: self.frame_time * self.index as u32,
        };
        self.index += 1;
        Ok(Some(frame))
    }

    fn pass(&self) -> u64 {
        self.index.saturating_sub(1) / self.frames_per_pass().max(1)
    }
}

/// A camera found on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CameraDevice {
    /// Its index, as `--camera` takes it.
    pub index: u32,
    /// Its name.
    pub name: String,
}

/// The cameras nokhwa finds (none on a machine without V4L2 devices; never an error for that).
pub fn list_cameras() -> Vec<CameraDevice> {
    match nokhwa::query(nokhwa::utils::ApiBackend::Auto) {
        Ok(cameras) => cameras
            .iter()
            .filter_map(|c| match c.index() {
                nokhwa::utils::CameraIndex::Index(i) => Some(CameraDevice {
                    index: *i,
                    name: c.human_name(),
                }),
                nokhwa::utils::CameraIndex::String(_) => None,
            })
            .collect(),
        Err(e) => {
            tracing::debug!("camera query failed: {e}");
            Vec::new()
        }
    }
}

/// What to ask a webcam for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebcamRequest {
    /// Device index.
    pub index: u32,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Frames per second.
    pub fps: u32,
}

impl Default for WebcamRequest {
    fn default() -> WebcamRequest {
        WebcamRequest {
            index: 0,
            width: 1920,
            height: 1080,
            fps: 30,
        }
    }
}

/// A live webcam through nokhwa. If it stops delivering (unplugged mid-game), each call reports
/// it as [`SourceError::Lost`] and, at most once a second, tries to open it again.
pub struct Webcam {
    request: WebcamRequest,
    camera: Option<nokhwa::Camera>,
    lost: Option<(String, Instant)>,
    started: Instant,
    index: u64,
}

/// How often a lost camera is retried.
pub const WEBCAM_RETRY: Duration = Duration::from_secs(1);

impl Webcam {
    /// Open a webcam.
    pub fn open(request: WebcamRequest) -> Result<Webcam, SourceError> {
        let camera = open_camera(&request).map_err(|reason| SourceError::Open {
            source_name: format!("webcam {}", request.index),
            reason,
        })?;
        Ok(Webcam {
            request,
            camera: Some(camera),
            lost: None,
            started: Instant::now(),
            index: 0,
        })
    }

    fn lost(&mut self, reason: String) -> SourceError {
        tracing::warn!("webcam {}: {reason}", self.request.index);
        self.camera = None;
        self.lost = Some((reason.clone(), Instant::now()));
        SourceError::Lost {
            source_name: self.name(),
            reason,
            retry: WEBCAM_RETRY,
        }
    }
}

fn open_camera(request: &WebcamRequest) -> Result<nokhwa::Camera, String> {
    use nokhwa::pixel_format::RgbFormat;
    use nokhwa::utils::{
        CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType, Resolution,
    };
    let format = CameraFormat::new(
        Resolution::new(request.width, request.height),
        FrameFormat::MJPEG,
        request.fps,
    );
    let wanted = RequestedFormat::new::<RgbFormat>(RequestedFormatType::Closest(format));
    let mut camera = nokhwa::Camera::new(CameraIndex::Index(request.index), wanted)
        .map_err(|e| e.to_string())?;
    camera.open_stream().map_err(|e| e.to_string())?;
    Ok(camera)
}

impl FrameSource for Webcam {
    fn name(&self) -> String {
        format!("webcam {}", self.request.index)
    }

    fn next_frame(&mut self) -> Result<Option<Frame>, SourceError> {
        if self.camera.is_none() {
            let (reason, since) = self
                .lost
                .clone()
                .unwrap_or_else(|| (String::new(), Instant::now()));
            if since.elapsed() < WEBCAM_RETRY {
                return Err(SourceError::Lost {
                    source_name: self.name(),
                    reason,
                    retry: WEBCAM_RETRY,
                });
            }
            match open_camera(&self.request) {
                Ok(camera) => {
                    tracing::info!("webcam {} is back", self.request.index);
                    self.camera = Some(camera);
                    self.lost = None;
                }
                Err(reason) => return Err(self.lost(reason)),
            }
        }
        let Some(camera) = self.camera.as_mut() else {
            return Ok(None);
        };
        let buffer = match camera.frame() {
            Ok(buffer) => buffer,
            Err(e) => return Err(self.lost(e.to_string())),
        };
        let resolution = buffer.resolution();
        let rgb = match buffer.decode_image::<nokhwa::pixel_format::RgbFormat>() {
            Ok(image) => image.into_raw(),
            Err(e) => return Err(self.lost(format!("undecodable frame: {e}"))),
        };
        let image = rgb_to_mat(&rgb, resolution.width(), resolution.height())?;
        let frame = Frame {
            image,
            index: self.index,
            time: self.started.elapsed(),
        };
        self.index += 1;
        Ok(Some(frame))
    }
}

fn rgb_to_mat(rgb: &[u8], width: u32, height: u32) -> Result<Mat, VisionError> {
    if rgb.len() != width as usize * height as usize * 3 {
        return Err(VisionError::Image(format!(
            "a {width}×{height} frame came with {} bytes",
            rgb.len()
        )));
    }
    let flat = Mat::from_slice(rgb)?;
    let shaped = flat.reshape(3, height as i32)?;
    let mut bgr = Mat::default();
    opencv::imgproc::cvt_color_def(&shaped, &mut bgr, opencv::imgproc::COLOR_RGB2BGR)?;
    Ok(bgr)
}
