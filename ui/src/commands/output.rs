//! Files the commands write. Decisions:
//! - A command never writes over one of its own inputs (`analyze photo.jpg --annotate
//!   photo.jpg` would destroy the photo), whatever `--force` says.
//! - An existing file is replaced only with `--force`, checked before any work is done.
//! - A file is written whole or not at all: to a temporary file beside it, renamed into place,
//!   so a crash or a full disk leaves the old file.

use std::path::Path;

use anyhow::bail;

/// Check, before any work, that `output` may be written: it is none of `inputs`, and it does
/// not exist unless `force`.
pub fn claim(output: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    if let Some(input) = inputs.iter().find(|input| same_file(output, input)) {
        bail!(
            "{}: this is an input of the command ({}); writing the result over it would destroy it — name another output",
            output.display(),
            input.display()
        );
    }
    if let Some(folder) = output.parent().filter(|p| !p.as_os_str().is_empty())
        && !folder.is_dir()
    {
        bail!(
            "{}: cannot write: there is no folder {}",
            output.display(),
            folder.display()
        );
    }
    if output.exists() && !force {
        bail!(
            "{}: already exists (--force to replace it)",
            output.display()
        );
    }
    Ok(())
}

/// Whether two paths name one file (either may not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// As [`claim`], for a picture: its name must also say a format Vedette writes.
pub fn claim_picture(output: &Path, inputs: &[&Path], force: bool) -> anyhow::Result<()> {
    if !vision::image_io::writable_picture_name(output) {
        bail!(
            "{}: not a picture format Vedette writes: name it .png or .jpg",
            output.display()
        );
    }
    claim(output, inputs, force)
}

/// Write a picture whole (see [`calibration::files::write_whole`]).
pub fn write_picture(output: &Path, picture: &vision::Mat) -> anyhow::Result<()> {
    calibration::files::write_whole(output, |temporary| {
        vision::write_image(temporary, picture).map_err(|e| match e {
            vision::VisionError::UnwritableImage { reason, .. } => std::io::Error::other(reason),
            other => std::io::Error::other(other.to_string()),
        })
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("vedette-output-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn an_input_is_never_an_output_even_by_another_name() {
        let dir = scratch("input");
        let photo = dir.join("photo.jpg");
        std::fs::write(&photo, b"photo").expect("write");
        let by_another_name = dir.join(".").join("photo.jpg");
        let error = claim(&by_another_name, &[&photo], true).expect_err("refused");
        assert!(
            error.to_string().contains("input of the command"),
            "{error}"
        );
        claim(&dir.join("annotated.jpg"), &[&photo], false).expect("a new file may be written");
    }

    #[test]
    fn an_existing_file_is_replaced_only_with_force() {
        let dir = scratch("force");
        let existing = dir.join("camera.toml");
        std::fs::write(&existing, b"old").expect("write");
        let error = claim(&existing, &[], false).expect_err("refused");
        assert!(error.to_string().contains("--force"), "{error}");
        claim(&existing, &[], true).expect("forced");
    }
}
