//! Which passes run on which frame.
//!
//! Every frame searches the known tags' regions at full resolution. Beside that, one band of a
//! decimated full-frame pass looks for new tags (the bands take turns, so the whole frame is
//! covered every few frames at a fraction of the cost), and a full-resolution full-frame pass
//! runs every so often (new small tags, which decimation misses) and when tags go missing —
//! at most once in a while, so a hand resting on the table does not make every frame slow.

/// How often each pass runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScheduleSettings {
    /// A full-resolution full-frame pass every this many frames.
    pub full_every: u32,
    /// Frames that must pass between two full passes asked for by missing tags.
    pub full_gap: u32,
    /// The decimated pass is split into this many horizontal bands, one a frame (0 = none).
    pub bands: u32,
    /// Decimation of the band pass.
    pub band_decimate: f32,
    /// The band pass's floor on a tile's black–white difference: high, so the texture of a
    /// mat is passed over (a new tag in dim light waits for the next full pass, which looks
    /// at every tile).
    pub band_min_contrast: u8,
    /// A full pass is asked for when fewer than this share of the known tags are found.
    pub found_share: f64,
}

impl Default for ScheduleSettings {
    fn default() -> ScheduleSettings {
        ScheduleSettings {
            full_every: 90,
            full_gap: 30,
            bands: 8,
            band_decimate: 2.0,
            band_min_contrast: 40,
            found_share: 0.7,
        }
    }
}

/// Why a frame gets a full-resolution full-frame pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullReason {
    /// Nothing is known yet (the first frame, or every tag was lost).
    NothingKnown,
    /// The regular check: anchors, and new tags too small for the decimated pass.
    Regular,
    /// Tags went missing from their regions, or the scene changed a lot.
    Missing,
}

/// The passes of one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The whole frame at full resolution (regions are not needed).
    Full(FullReason),
    /// The known tags' regions, and this band of the decimated pass, if any.
    Tracking {
        /// Which band.
        band: Option<u32>,
    },
}

/// Decides the passes frame after frame.
#[derive(Clone, Debug)]
pub struct Schedule {
    settings: ScheduleSettings,
    frame: u64,
    last_full: Option<u64>,
    missing: bool,
    next_band: u32,
}

impl Schedule {
    /// A schedule starting at frame 0.
    pub fn new(settings: ScheduleSettings) -> Schedule {
        Schedule {
            settings,
            frame: 0,
            last_full: None,
            missing: false,
            next_band: 0,
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &ScheduleSettings {
        &self.settings
    }

    /// Start again as on the first frame: the next frame is a full pass, whatever the gap since
    /// the last one (the camera moved or the source changed, so what was known is worthless).
    pub fn restart(&mut self) {
        self.last_full = None;
        self.missing = false;
    }

    /// Ask for a full pass: tags went missing. Granted once `full_gap` frames have passed since
    /// the last full pass.
    pub fn report_missing(&mut self) {
        self.missing = true;
    }

    /// The passes of the next frame, given how many tags are known.
    pub fn plan(&mut self, known: usize) -> Plan {
        let frame = self.frame;
        self.frame += 1;
        let since = self.last_full.map(|f| frame - f);
        let reason = match since {
            None => Some(FullReason::NothingKnown),
            Some(s) if known == 0 && s >= u64::from(self.settings.full_gap) => {
                Some(FullReason::NothingKnown)
            }
            Some(s) if s >= u64::from(self.settings.full_every) => Some(FullReason::Regular),
            Some(s) if self.missing && s >= u64::from(self.settings.full_gap) => {
                Some(FullReason::Missing)
            }
            Some(_) => None,
        };
        if let Some(reason) = reason {
            self.last_full = Some(frame);
            self.missing = false;
            return Plan::Full(reason);
        }
        let band = (self.settings.bands > 0).then(|| {
            let band = self.next_band % self.settings.bands;
            self.next_band = (band + 1) % self.settings.bands;
            band
        });
        Plan::Tracking { band }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_frames(schedule: &mut Schedule, frames: usize, missing_at: &[usize]) -> Vec<usize> {
        (0..frames)
            .filter(|f| {
                if missing_at.contains(f) {
                    schedule.report_missing();
                }
                matches!(schedule.plan(10), Plan::Full(_))
            })
            .collect()
    }

    #[test]
    fn full_passes_are_regular_and_missing_tags_are_rate_limited() {
        let settings = ScheduleSettings {
            full_every: 20,
            full_gap: 5,
            ..ScheduleSettings::default()
        };
        let mut schedule = Schedule::new(settings);
        assert_eq!(full_frames(&mut schedule, 45, &[]), vec![0, 20, 40]);
        let mut schedule = Schedule::new(settings);
        // Tags missing on every frame from 2 on: one full pass every 5 frames, not every frame.
        let missing: Vec<usize> = (2..45).collect();
        assert_eq!(full_frames(&mut schedule, 16, &missing), vec![0, 5, 10, 15]);
    }

    #[test]
    fn bands_take_turns() {
        let mut schedule = Schedule::new(ScheduleSettings {
            bands: 3,
            ..ScheduleSettings::default()
        });
        let bands: Vec<Option<u32>> = (0..5)
            .map(|_| match schedule.plan(4) {
                Plan::Tracking { band } => band,
                Plan::Full(_) => None,
            })
            .collect();
        assert_eq!(bands, vec![None, Some(0), Some(1), Some(2), Some(0)]);
    }

    #[test]
    fn a_restart_gets_a_full_pass_at_once() {
        let mut schedule = Schedule::new(ScheduleSettings::default());
        assert_eq!(schedule.plan(0), Plan::Full(FullReason::NothingKnown));
        for _ in 0..3 {
            assert!(matches!(schedule.plan(12), Plan::Tracking { .. }));
        }
        // Everything lost a few frames after a full pass: without a restart it waits its gap.
        assert!(matches!(schedule.plan(0), Plan::Tracking { .. }));
        schedule.restart();
        assert_eq!(schedule.plan(0), Plan::Full(FullReason::NothingKnown));
    }
}
