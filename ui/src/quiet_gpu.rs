//! Keeping Mesa's Vulkan device-selection layer quiet where there is no desktop session.
//!
//! The commands that draw with wgpu (the app, `screenshot`, `bench app`) list the Vulkan
//! devices. Mesa's implicit layer `VK_LAYER_MESA_device_select` then asks the Wayland compositor
//! which GPU is the default, and without a session (CI, cron, ssh, `xvfb-run`) libwayland-client
//! prints "error: XDG_RUNTIME_DIR is invalid or not set in the environment." — twice for every
//! screenshot, four times as the app opens. Nothing else prints it: a breakpoint on
//! `wl_display_connect` stops only under the layer's `vkEnumeratePhysicalDevices`. The layer
//! only puts the default GPU first, and wgpu picks its adapter itself.
//!
//! `NODEVICE_SELECT=1` in the environment the Vulkan loader reads switches the layer off. A
//! process cannot give itself that variable safely (`std::env::set_var` is `unsafe` in Rust
//! 2024: another thread may be reading the environment), and the workspace forbids `unsafe`.
//! So a drawing command run without a session replaces itself (`exec`, same process, same
//! arguments and standard streams, so signals and the exit code are its own) with a fresh run
//! of the program that has the variable set, before it has started any thread.

use std::process::Command;

/// The variable Mesa's device-selection layer is switched off by (its manifest's
/// `disable_environment`).
const SWITCH_OFF: &str = "NODEVICE_SELECT";

/// For a command that draws with wgpu: when there is no session and the layer is not yet
/// switched off, run this program afresh in this process with it switched off. Returns only if
/// nothing needed doing or the program could not be run again; then carry on here (noise on
/// stderr is better than no picture).
pub fn rerun_without_device_select() {
    let no_session = std::env::var_os("XDG_RUNTIME_DIR").is_none_or(|dir| dir.is_empty());
    if !no_session || std::env::var_os(SWITCH_OFF).is_some() {
        return;
    }
    let Ok(program) = std::env::current_exe() else {
        return;
    };
    let mut again = Command::new(program);
    again.args(std::env::args_os().skip(1)).env(SWITCH_OFF, "1");
    replace_process(again);
}

#[cfg(unix)]
fn replace_process(mut command: Command) {
    use std::os::unix::process::CommandExt;
    // `exec` only returns on failure.
    let error = command.exec();
    tracing::debug!("could not run vedette again without Mesa's device selection: {error}");
}

#[cfg(not(unix))]
fn replace_process(_: Command) {}
