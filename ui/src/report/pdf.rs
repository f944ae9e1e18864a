//! The report as a PDF: the HTML page printed by a headless chromium, so the PDF is exactly
//! the page (its fonts, its print style: one turn to an A4 landscape sheet) and Vedette
//! carries no PDF layout of its own.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::model::ReportError;

/// The browsers that print, by the names Debian and others install them under.
const CHROMIUMS: [&str; 2] = ["chromium", "chromium-browser"];
/// Chromium prints a report in a few seconds; one that takes this long has hung.
const PATIENCE: Duration = Duration::from_secs(120);

/// Print `html` to the PDF `output`.
pub fn print(html: &str, output: &Path) -> Result<(), ReportError> {
    let program = chromium().ok_or(ReportError::NoChromium)?;
    let failed = |why: String| ReportError::Print {
        path: output.to_owned(),
        program: program.clone(),
        why,
    };
    let scratch = std::env::temp_dir().join(format!(
        "vedette-report-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let page = scratch.join("report.html");
    std::fs::create_dir_all(&scratch)
        .and_then(|()| std::fs::write(&page, html))
        .map_err(|e| {
            failed(format!(
                "cannot write the page to print in {}: {e}",
                scratch.display()
            ))
        })?;
    // Chromium writes the PDF where it is told, relative to its own folder: make it whole.
    let target = std::path::absolute(output).unwrap_or_else(|_| output.to_owned());
    let _ = std::fs::remove_file(&target);
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder)
            .map_err(|e| failed(format!("cannot make its folder: {e}")))?;
    }
    let result = run(&program, &page, &target, &scratch).map_err(failed);
    let _ = std::fs::remove_dir_all(&scratch);
    result?;
    match std::fs::metadata(&target) {
        Ok(meta) if meta.len() > 0 => Ok(()),
        _ => Err(ReportError::Print {
            path: output.to_owned(),
            program,
            why: "it finished without writing the PDF".into(),
        }),
    }
}

/// The first chromium on the PATH.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let folders: Vec<PathBuf> = std::env::split_paths(&path).collect();
    CHROMIUMS.iter().find_map(|name| {
        folders
            .iter()
            .map(|folder| folder.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// Run chromium headless on the page, in a process group of its own so that it and its
/// helpers can all be stopped if it hangs.
fn run(program: &Path, page: &Path, target: &Path, scratch: &Path) -> Result<(), String> {
    // Its chatter goes to a file: a pipe nobody reads until it ends could fill and stall it.
    let said_path = scratch.join("chromium.log");
    let said = std::fs::File::create(&said_path).map_err(|e| format!("cannot log it: {e}"))?;
    let mut child = Command::new(program)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg(format!("--print-to-pdf={}", target.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(said)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("it cannot be started: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                let said = std::fs::read_to_string(&said_path).unwrap_or_default();
                let last = said.lines().rev().find(|l| !l.trim().is_empty());
                return Err(format!(
                    "it stopped with {status}{}",
                    last.map(|l| format!(": {}", l.trim())).unwrap_or_default()
                ));
            }
            Ok(None) if started.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Ok(None) => {
                stop(child.id());
                let _ = child.wait();
                return Err(format!(
                    "it had not finished after {} s",
                    PATIENCE.as_secs()
                ));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Stop a process group: chromium and every helper it started.
fn stop(group: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .status();
}
