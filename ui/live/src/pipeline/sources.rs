//! How one camera's source is opened on its capture thread: a webcam, a video file or a
//! picture (the demo and remote cameras are not opened this way).

use vision::FrameSource;
use vision::source::{ImageFile, VideoFile, Webcam, WebcamRequest};

use super::setup::SourceChoice;
use crate::capture::{OpenSource, SourcePlan};

/// How to read one camera's source: a webcam, a video (looped: a convention table keeps
/// playing), or a picture (whose one frame must not be dropped).
pub fn source_plan(source: &SourceChoice) -> Result<SourcePlan, String> {
    match source {
        SourceChoice::Webcam {
            index,
            width,
            height,
        } => {
            let request = WebcamRequest {
                index: *index,
                width: *width,
                height: *height,
                ..WebcamRequest::default()
            };
            let open: OpenSource = Box::new(move || {
                let camera = Webcam::open(request).map_err(|e| e.to_string())?;
                Ok(Box::new(camera) as Box<dyn FrameSource>)
            });
            Ok(plan(open, false, false))
        }
        SourceChoice::Video(path) => {
            let path = path.clone();
            let open: OpenSource = Box::new(move || {
                let video = VideoFile::open(&path).map_err(|e| e.to_string())?;
                Ok(Box::new(video) as Box<dyn FrameSource>)
            });
            Ok(plan(open, true, true))
        }
        SourceChoice::Image(path) => {
            let path = path.clone();
            let open: OpenSource =
                Box::new(move || Ok(Box::new(ImageFile::new(&path)) as Box<dyn FrameSource>));
            Ok(SourcePlan {
                live: false,
                ..plan(open, false, false)
            })
        }
        SourceChoice::Demo => Err("the demo table is not one camera of several".into()),
        SourceChoice::Cameras(cameras) if cameras.is_empty() => {
            Err("no camera is listed: add one in the 📷 menu, or give a cameras file".into())
        }
        SourceChoice::Cameras(_) => Err("a camera of several cannot be several itself".into()),
        SourceChoice::Remote(broker) => Err(format!(
            "a remote camera ({broker}) sends tags, not pictures: list it in a cameras file beside the cameras of this machine"
        )),
    }
}

/// A live source's plan: frames dropped when the processor is busy.
pub(super) fn plan(open: OpenSource, paced: bool, looped: bool) -> SourcePlan {
    SourcePlan {
        open,
        paced,
        live: true,
        looped,
    }
}
