//! Stopping on a signal as on the window's close button: Ctrl-C (SIGINT), `kill` or a
//! service manager (SIGTERM) and a closed terminal or SSH session (SIGHUP) each end the game
//! the same way, its record closed and folded into one file. A second signal while it closes
//! stops the process at once (what the record committed is kept; its log stays beside it).

use std::future::Future;
use std::pin::Pin;

/// The first stop signal to come, by name ("SIGTERM").
pub async fn stop_signal() -> &'static str {
    let mut waits: Vec<Pin<Box<dyn Future<Output = &'static str> + Send>>> =
        vec![Box::pin(async {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        })];
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        for (kind, name) in [
            (SignalKind::terminate(), "SIGTERM"),
            (SignalKind::hangup(), "SIGHUP"),
        ] {
            match signal(kind) {
                Ok(mut stream) => waits.push(Box::pin(async move {
                    stream.recv().await;
                    name
                })),
                Err(e) => tracing::warn!("cannot listen for {name}: {e}"),
            }
        }
    }
    futures_util::future::select_all(waits).await.0
}

/// Call `stop` on the first stop signal, on a thread of its own; on a second, leave at once.
pub fn on_stop_signal(stop: impl FnOnce(&'static str) + Send + 'static) {
    let watcher = std::thread::Builder::new()
        .name("vedette-signals".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => return tracing::warn!("cannot listen for stop signals: {e}"),
            };
            runtime.block_on(async {
                let first = stop_signal().await;
                tracing::info!("{first}: closing the game");
                stop(first);
                let second = stop_signal().await;
                eprintln!("vedette: {second} again: stopped at once");
                std::process::exit(130);
            });
        });
    if let Err(e) = watcher {
        tracing::warn!("cannot listen for stop signals: {e}");
    }
}

/// Block until Ctrl-C, SIGTERM or SIGHUP, or until `seconds` have passed (none: no limit), for
/// a command that serves until stopped.
pub fn until_stopped(seconds: Option<f64>) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let limit = std::time::Duration::from_secs_f64(seconds.unwrap_or(1e9).clamp(0.0, 1e9));
        tokio::select! {
            signal = stop_signal() => tracing::info!("{signal}: stopping"),
            () = tokio::time::sleep(limit) => {}
        }
    });
    Ok(())
}
