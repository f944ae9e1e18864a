//! Writing pages to files, and reading back which tags a written sheet prints.

use std::path::PathBuf;

use super::{Page, PrintError, pdf, raster};

/// Write pages to `path` in the format its extension names: one `.pdf` with every page, or
/// `.svg` / `.png` (150 dpi) files, numbered `name-1.svg`, `name-2.svg` … when there are
/// several. Returns the files written.
pub fn save(pages: &[Page], path: &std::path::Path) -> Result<Vec<PathBuf>, PrintError> {
    let write = |file: &std::path::Path, bytes: &[u8]| {
        std::fs::write(file, bytes).map_err(|e| PrintError::Write {
            file: file.to_owned(),
            reason: e.to_string(),
        })
    };
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if extension == "pdf" {
        write(path, &pdf::write_pdf(pages))?;
        return Ok(vec![path.to_owned()]);
    }
    if extension != "svg" && extension != "png" {
        return Err(PrintError::Write {
            file: path.to_owned(),
            reason: "name it .pdf, .svg or .png".into(),
        });
    }
    let mut written = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        let file = if pages.len() == 1 {
            path.to_owned()
        } else {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("sheet");
            path.with_file_name(format!("{stem}-{}.{extension}", i + 1))
        };
        let bytes = match extension.as_str() {
            "svg" => page.svg().into_bytes(),
            _ => raster::png(page, PREVIEW_DPI)?,
        };
        write(&file, &bytes)?;
        written.push(file);
    }
    Ok(written)
}

/// The resolution of PNG previews.
pub const PREVIEW_DPI: f64 = 150.0;

/// The tags a saved sheet (SVG or PDF written here) prints: family and ids, read back from
/// its `vedette-tags` lines.
pub fn read_sheet_tags(bytes: &[u8]) -> Vec<(String, u32)> {
    let text = String::from_utf8_lossy(bytes);
    let mut found = Vec::new();
    for chunk in text.split("vedette-tags ").skip(1) {
        let line = chunk.lines().next().unwrap_or("");
        let line = line.split('<').next().unwrap_or("");
        let mut family = None;
        let mut ids = Vec::new();
        for field in line.split_whitespace() {
            if let Some(f) = field.strip_prefix("family=") {
                family = Some(f.to_owned());
            } else if let Some(list) = field.strip_prefix("ids=") {
                ids = list.split(',').filter_map(|i| i.parse().ok()).collect();
            }
        }
        if let Some(family) = family {
            found.extend(ids.into_iter().map(|id| (family.clone(), id)));
        }
    }
    found.sort();
    found.dedup();
    found
}
