//! Which passes run on which frame.
//!
//! Every frame searches the known tags' regions at full resolution. Beside that, one band of a
//! decimated full-frame pass looks for new tags (the bands take turns, so the whole frame is
//! covered every few frames at a fraction of the cost), and a full-resolution sweep of the
//! whole frame runs every so often (new small tags, which decimation misses) and when tags go
//! missing — at most once in a while, so a hand resting on the table does not make every frame
//! slow. The sweep is spread over a few frames, a part of the frame each, so that no frame
//! pays for a whole full-resolution pass (50–100 ms at 1080p on a busy table, twice a live
//! frame's budget); only the first frame, knowing nothing, does.

/// How often each pass runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScheduleSettings {
    /// A full-resolution full-frame pass every this many frames.
    pub full_every: u32,
    /// Frames that must pass between two full passes asked for by missing tags: a stand
    /// covered by a hand and put down elsewhere is found within this and a sweep's parts.
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
            full_gap: 15,
            bands: 8,
            band_decimate: 2.0,
            band_min_contrast: 40,
            found_share: 0.7,
        }
    }
}

/// Why the frame gets a full-resolution pass over all of it.
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
    /// The whole frame at full resolution, at once (regions are not needed): only when
    /// nothing is known.
    Full(FullReason),
    /// The known tags' regions, and this band of the decimated pass or this part of a
    /// full-resolution sweep, if any.
    Tracking {
        /// Which band of the decimated pass.
        band: Option<u32>,
        /// Which part of a full-resolution sweep.
        sweep: Option<SweepPart>,
    },
}

/// One part of a full-resolution sweep of the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepPart {
    /// Why the sweep runs.
    pub reason: FullReason,
    /// Which part, from the top.
    pub part: u32,
    /// Of how many.
    pub parts: u32,
}

impl Plan {
    /// A tracking frame with neither a band nor a sweep: regions alone.
    pub const REGIONS: Plan = Plan::Tracking {
        band: None,
        sweep: None,
    };

    /// Why the whole frame is looked at in full in this frame: at once, or as the first part of
    /// a sweep.
    pub fn full_look(&self) -> Option<FullReason> {
        match self {
            Plan::Full(reason) => Some(*reason),
            Plan::Tracking {
                sweep: Some(SweepPart {
                    reason, part: 0, ..
                }),
                ..
            } => Some(*reason),
            Plan::Tracking { .. } => None,
        }
    }
}

/// Decides the passes frame after frame.
#[derive(Clone, Debug)]
pub struct Schedule {
    settings: ScheduleSettings,
    frame: u64,
    last_full: Option<u64>,
    missing: bool,
    next_band: u32,
    /// The sweep under way, and its next part.
    sweep: Option<(FullReason, u32)>,
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
            sweep: None,
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
        self.sweep = None;
    }

    /// Ask for a full pass: tags went missing. Granted once `full_gap` frames have passed since
    /// the last full pass.
    pub fn report_missing(&mut self) {
        self.missing = true;
    }

    /// The passes of the next frame, given how many tags are known and in how many parts the
    /// frame is swept.
    pub fn plan(&mut self, known: usize, parts: u32) -> Plan {
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
            if reason == FullReason::NothingKnown || parts <= 1 {
                self.sweep = None;
                return Plan::Full(reason);
            }
            self.sweep = Some((reason, 0));
        }
        if let Some((reason, part)) = self.sweep {
            self.sweep = (part + 1 < parts).then_some((reason, part + 1));
            return Plan::Tracking {
                band: None,
                sweep: Some(SweepPart {
                    reason,
                    part,
                    parts,
                }),
            };
        }
        let band = (self.settings.bands > 0).then(|| {
            let band = self.next_band % self.settings.bands;
            self.next_band = (band + 1) % self.settings.bands;
            band
        });
        Plan::Tracking { band, sweep: None }
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
                schedule.plan(10, 3).full_look().is_some()
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
            .map(|_| match schedule.plan(4, 3) {
                Plan::Tracking { band, .. } => band,
                Plan::Full(_) => None,
            })
            .collect();
        assert_eq!(bands, vec![None, Some(0), Some(1), Some(2), Some(0)]);
    }

    #[test]
    fn a_sweep_takes_its_parts_in_turn_and_only_the_first_frame_looks_at_everything_at_once() {
        let mut schedule = Schedule::new(ScheduleSettings {
            full_every: 5,
            ..ScheduleSettings::default()
        });
        let plans: Vec<Plan> = (0..9).map(|_| schedule.plan(10, 3)).collect();
        assert_eq!(plans[0], Plan::Full(FullReason::NothingKnown));
        let parts: Vec<Option<u32>> = plans
            .iter()
            .map(|p| match p {
                Plan::Tracking { sweep, .. } => sweep.map(|s| s.part),
                Plan::Full(_) => None,
            })
            .collect();
        assert_eq!(
            parts,
            vec![
                None,
                None,
                None,
                None,
                None,
                Some(0),
                Some(1),
                Some(2),
                None
            ]
        );
        assert!(plans.iter().filter(|p| matches!(p, Plan::Full(_))).count() == 1);
    }

    #[test]
    fn a_restart_gets_a_full_pass_at_once() {
        let mut schedule = Schedule::new(ScheduleSettings::default());
        assert_eq!(schedule.plan(0, 3), Plan::Full(FullReason::NothingKnown));
        for _ in 0..3 {
            assert!(matches!(schedule.plan(12, 3), Plan::Tracking { .. }));
        }
        // Everything lost a few frames after a full pass: without a restart it waits its gap.
        assert!(matches!(schedule.plan(0, 3), Plan::Tracking { .. }));
        schedule.restart();
        assert_eq!(schedule.plan(0, 3), Plan::Full(FullReason::NothingKnown));
    }
}
