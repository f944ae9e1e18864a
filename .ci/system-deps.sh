#!/usr/bin/env bash
# Installs the Debian packages Vedette's build, tests and app need, and only those that are missing.
# Used by `make run`, `make test` and so by CI. On a system without apt it prints what to install and stops.
#
# Why each package (see also shared/notes/stack.md):
#   build-essential pkg-config       the C parts (vendored AprilTag C library)
#   clang libclang-dev               bindgen for the opencv and nokhwa crates
#   libopencv-dev                    image I/O, video files, calibration (OpenCV 4.6 on Debian 12)
#   libudev-dev                      nokhwa's V4L camera backend
#   xvfb xauth x11-apps imagemagick  running the app headless and taking screenshots in tests
#   libxkbcommon-dev libxkbcommon-x11-0 libegl1 libgl1-mesa-dri libxcursor1 libxrandr2 libxi6
#   mesa-vulkan-drivers libvulkan1   the egui window and software rendering without a GPU
#   chromium chromium-driver         (tests only) the table's web page in a real browser
#   mosquitto                        (tests only) a real MQTT broker for the hall's hub
#   poppler-utils                    (tests only) pdftoppm, to look at the battle report's PDF
#
# `make test` passes --tests to add the last four; `make run` does without them.
set -euo pipefail

PACKAGES=(
  build-essential pkg-config clang libclang-dev libopencv-dev libudev-dev
  xvfb xauth x11-apps imagemagick
  libxkbcommon-dev libxkbcommon-x11-0 libegl1 libgl1-mesa-dri libxcursor1 libxrandr2 libxi6
  mesa-vulkan-drivers libvulkan1
)
if [[ "${1:-}" == "--tests" ]]; then
  PACKAGES+=(chromium chromium-driver mosquitto poppler-utils)
fi

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
  done
else
  echo "vedette: this is not a Debian-like system (no dpkg)." >&2
  echo "Install the equivalents of these Debian packages, then run make again:" >&2
  echo "  ${PACKAGES[*]}" >&2
  exit 1
fi

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "vedette: installing missing system packages: ${missing[*]}"
SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "vedette: need root or sudo to run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
# An apt hook on some images deletes downloaded archives between dpkg passes ("failed to read archive"):
# a second attempt succeeds, so retry a few times before giving up.
for attempt in 1 2 3; do
  if "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    exit 0
  fi
  echo "vedette: apt-get install failed (attempt $attempt of 3), retrying" >&2
  sleep 2
done
echo "vedette: could not install: ${missing[*]}" >&2
exit 1
