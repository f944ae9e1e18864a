//! An evening's game on the synthetic table, as hostile as a real one: players pick stands up,
//! carry them through the air 1–4" above the cloth, tilted up to 30° and with fingers over
//! part of the tag, and put them down elsewhere; slide movement trays along the cloth; rest a
//! hand over units for seconds (and now and then move one under it); reach across the table.
//! The webcam sends MJPEG at qualities 55–75, blurs what moves during its exposure, swings
//! its exposure as arms come and go, and a lamp puts glare on the glossy tags under it.
//!
//! The truth of every frame is known: where each unit lies and whether a hand holds it
//! ([`Evening::truth_at`]), and every move made ([`Evening::moves`]).
//!
//! The game is planned whole when it is made (from a seed), so any frame can be drawn in any
//! order and a long run holds one frame at a time.

use std::time::Duration;

use calibration::{AnchorLayout, Camera, Pixels, TableSize};
use roster::{Roster, TagDefaults};
use rules::RulesetId;
use rules::Scene;
use rules::geometry::{OrientedRect, TablePoint, TableVector, heading};
use rules::scene::UnitKind;
use rules::scene::{Formation, SceneDoc, StandDoc, TableDoc, UnitDoc};
use rules::units::{Degrees, Inches};

use super::colour::Rgb;
use super::noise::Noise;
use super::render::Effects;
use super::scenery::Scenery;
use super::world::{Block, BlockMotion, Glare, HandHold, PrintedTag, SyntheticTable};

/// What the evening looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EveningSettings {
    /// The table.
    pub table: TableSize,
    /// Units on it (about half trays of two or three stands, half single bases).
    pub units: usize,
    /// How long the game lasts.
    pub seconds: f64,
    /// Frames a second.
    pub fps: f64,
    /// Players moving units at once (1 or 2; the second plays from the far edge).
    pub players: usize,
    /// The webcam's exposure: a moving stand is blurred over this much of its path.
    pub shutter: Duration,
    /// The MJPEG qualities the webcam sends, lowest and highest.
    pub jpeg: (u8, u8),
    /// Lamps' reflections on the table.
    pub glare_spots: usize,
    /// Tags printed with faded ink.
    pub faded_tags: usize,
    /// How busy the mat and the stands look.
    pub scenery: Scenery,
    /// Rays a pixel's side when rendering (2: four rays, four moments of the exposure).
    pub supersample: u32,
    /// Seed of the whole evening.
    pub seed: u64,
    /// Cameras side by side over the table, each over an equal share of its length: one has
    /// the anchors at the table's corners, more a long table's layout (a pair at each seam),
    /// and a share of the moves ([`ACROSS_SEAM`]) then carry units across a seam.
    pub cameras: usize,
}

impl Default for EveningSettings {
    fn default() -> EveningSettings {
        EveningSettings {
            table: TableSize {
                width: 72.0,
                depth: 48.0,
            },
            units: 36,
            seconds: 60.0,
            fps: 30.0,
            players: 2,
            shutter: Duration::from_micros(16_667),
            jpeg: (55, 75),
            glare_spots: 2,
            faded_tags: 2,
            scenery: Scenery::Busy { seed: 7 },
            supersample: 2,
            seed: 1,
            cameras: 1,
        }
    }
}

/// Where a unit lies: the centre of its base (or tray) and its facing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// The centre of its base.
    pub center: TablePoint,
    /// Where it faces.
    pub facing: Degrees,
}

impl Pose {
    /// The middle of its base's front edge: the unit's leader, where its measurements start.
    pub fn leader(&self) -> TablePoint {
        self.center + heading(self.facing) * (STAND.1 / 2.0)
    }
}

/// A move made, as the truth knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrueMove {
    /// The unit's id.
    pub unit: String,
    /// Where it lay before.
    pub from: Pose,
    /// Where it lies after.
    pub to: Pose,
    /// When a hand first touched it.
    pub touched: Duration,
    /// When it was put down where it ends (or stopped sliding).
    pub put_down: Duration,
    /// When the hand left it.
    pub released: Duration,
    /// Whether it was carried through the air.
    pub lifted: bool,
    /// Whether it was moved under a hand that hid it.
    pub hidden: bool,
}

/// A unit's truth in one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitTruth {
    /// The unit's id.
    pub unit: String,
    /// Its stands' footprints where they are, seen from above (in the air: where the base's
    /// centre is over the table).
    pub stands: Vec<OrientedRect>,
    /// Lying on the cloth (not lifted, not sliding).
    pub lying: bool,
    /// Lifted off the cloth by a hand.
    pub in_hand: bool,
    /// How long since a hand last touched it, if one ever did; `None` while one does.
    pub untouched_for: Option<Duration>,
}

/// A frame's truth.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameTruth {
    /// Its time from the start.
    pub time: Duration,
    /// Every unit.
    pub units: Vec<UnitTruth>,
}

/// How a gesture moves a unit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Lifted, carried through the air, put down.
    Carry {
        lift: f64,
        tilt: f64,
        toward: f64,
        /// How far the fingers reach over the base from its edge, inches.
        cover: f64,
    },
    /// Slid along the cloth by a hand at its edge.
    Slide { cover: f64 },
    /// Moved along the cloth under a hand that covers it.
    UnderHand,
}

/// A hand moving one unit.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Gesture {
    unit: usize,
    player: usize,
    kind: Kind,
    from: Pose,
    to: Pose,
    /// The hand arrives, the unit starts moving, it is put down, the hand has gone.
    arrives: f64,
    starts: f64,
    stops: f64,
    leaves: f64,
}

/// A hand resting over the table, or an arm reaching across it, touching nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Visit {
    player: usize,
    /// Where the hand is.
    at: TablePoint,
    /// Its height above the cloth (0: resting on the table).
    height: f64,
    arrives: f64,
    leaves: f64,
    /// An arm reaching across rather than a hand resting.
    reach: bool,
}

/// A unit of the evening: one base or tray, with its stands' tags.
#[derive(Clone, Debug, PartialEq)]
struct Piece {
    id: String,
    tags: Vec<u32>,
    /// Stands abreast on the base.
    stands: usize,
    start: Pose,
    colour: Rgb,
}

/// Each stand's frontage and depth.
const STAND: (f64, f64) = (2.0, 1.5);
const STAND_HEIGHT: f64 = 0.16;
const TAG_SIZE: f64 = 1.0;
const SKIN: Rgb = Rgb(214, 164, 132);
/// The ink of a tag printed long ago: grey enough to be named faded, dark enough to be read
/// most of the time.
const FADED_INK: Rgb = Rgb(100, 98, 96);
const SLEEVE: Rgb = Rgb(52, 58, 84);
/// Units keep this far from each other and from where others are going.
const ROOM: f64 = 0.75;
/// The anchors' corners stay clear: units keep this far inside the table's edge.
const EDGE: f64 = 6.0;

/// An evening's game (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Evening {
    settings: EveningSettings,
    anchors: AnchorLayout,
    roster: Roster,
    pieces: Vec<Piece>,
    gestures: Vec<Gesture>,
    visits: Vec<Visit>,
    glare: Vec<Glare>,
    faded: Vec<(u32, Rgb)>,
    moves: Vec<TrueMove>,
}

impl Evening {
    /// Plan the whole evening.
    pub fn new(settings: EveningSettings) -> Evening {
        // Each part of the evening draws from its own stream, so that an evening played longer
        // is the same evening up to where the shorter one ends.
        let stream =
            |part: u64| Noise::new(settings.seed.wrapping_mul(0x9E37_79B9).wrapping_add(part));
        let anchors = if settings.cameras > 1 {
            AnchorLayout::long_table(settings.table, settings.cameras, Inches(2.0), Inches(1.5))
        } else {
            AnchorLayout::corners(settings.table, Inches(2.0), Inches(1.5))
        };
        // Stands' tags after the anchors' ids, from 10 as ever for the corners' four.
        let first_tag = anchors.anchors.iter().map(|a| a.id + 1).fold(10, u32::max);
        let pieces = deploy(&settings, first_tag, &mut stream(1));
        let roster = roster_of(&settings, &pieces, first_tag);
        let mut plan = Plan::new(&pieces);
        plan.play(&settings, &mut stream(2));
        let mut noise = stream(3);
        let glare = (0..settings.glare_spots)
            .map(|_| Glare {
                center: TablePoint::new(
                    EDGE + noise.uniform() * (settings.table.width - 2.0 * EDGE),
                    EDGE + noise.uniform() * (settings.table.depth - 2.0 * EDGE),
                ),
                radius: Inches(1.2 + noise.uniform()),
                strength: 150.0 + 100.0 * noise.uniform(),
            })
            .collect();
        let tags: Vec<u32> = pieces.iter().flat_map(|p| p.tags.iter().copied()).collect();
        let faded = (0..settings.faded_tags.min(tags.len()))
            .map(|k| (tags[(k * 7 + 3) % tags.len()], FADED_INK))
            .collect();
        let moves = plan.moves(&pieces);
        Evening {
            settings,
            anchors,
            roster,
            pieces,
            gestures: plan.gestures,
            visits: plan.visits,
            glare,
            faded,
            moves,
        }
    }

    /// Its settings.
    pub fn settings(&self) -> &EveningSettings {
        &self.settings
    }

    /// Where one camera's share of the table meets the next's, along its length, inches.
    pub fn seams(&self) -> Vec<f64> {
        seams(&self.settings)
    }

    /// The table's anchors: at its corners, or a long table's layout for several cameras.
    pub fn anchors(&self) -> &AnchorLayout {
        &self.anchors
    }

    /// Which tag is on which stand of which unit.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// Every move made, in the order they end.
    pub fn moves(&self) -> &[TrueMove] {
        &self.moves
    }

    /// Frames in the evening.
    pub fn frames(&self) -> u64 {
        (self.settings.seconds * self.settings.fps).round() as u64
    }

    /// The time of frame `frame`.
    pub fn time_of(&self, frame: u64) -> Duration {
        Duration::from_secs_f64(frame as f64 / self.settings.fps)
    }

    /// Where the lamps' reflections are.
    pub fn glare(&self) -> &[Glare] {
        &self.glare
    }

    /// Tags printed faded.
    pub fn faded(&self) -> impl Iterator<Item = u32> + '_ {
        self.faded.iter().map(|(id, _)| *id)
    }

    /// The webcam's faults at frame `frame`: its MJPEG quality, its exposure's swing.
    pub fn effects_at(&self, frame: u64) -> Effects {
        let t = frame as f64 / self.settings.fps;
        // The webcam's quality changes every few seconds within its range, as its encoder
        // follows the scene.
        let mut pick = Noise::new(self.settings.seed ^ (t / 4.0).floor() as u64);
        let (low, high) = self.settings.jpeg;
        let quality = low + (f64::from(high.saturating_sub(low)) * pick.uniform()).round() as u8;
        Effects {
            supersample: self.settings.supersample,
            jpeg_quality: Some(quality.min(high)),
            gain: self.gain_at(t),
            seed: frame + 1,
            ..Effects::WEBCAM
        }
    }

    /// The exposure's gain at `t`: the auto-exposure darkens the picture as arms (bright skin
    /// over a dark cloth) come into it and brightens it as they leave, a little late and a
    /// little too far, and drifts slowly besides.
    fn gain_at(&self, t: f64) -> f64 {
        let lag = 0.35;
        let present = |arrives: f64, leaves: f64| {
            let rise = ((t - arrives) / lag).clamp(0.0, 1.0);
            let fall = ((t - leaves) / lag).clamp(0.0, 1.0);
            // The overshoot once the arm has gone.
            let bounce = if t > leaves {
                0.3 * (-(t - leaves - lag) / lag).exp().min(1.0) * fall
            } else {
                0.0
            };
            rise - fall - bounce
        };
        let arms: f64 = self
            .gestures
            .iter()
            .map(|g| present(g.arrives, g.leaves))
            .chain(self.visits.iter().map(|v| present(v.arrives, v.leaves)))
            .sum();
        (1.0 - 0.18 * arms + 0.08 * (std::f64::consts::TAU * t / 23.0).sin()).clamp(0.6, 1.4)
    }

    /// The table at frame `frame`: every unit where it is at the middle of the exposure, moving
    /// ones blurred over the shutter, hands and arms, the anchors, the glare.
    pub fn table_at(&self, frame: u64) -> SyntheticTable {
        let t = frame as f64 / self.settings.fps;
        let shutter = self.settings.shutter.as_secs_f64();
        let mut world = SyntheticTable::new(self.settings.table);
        world.scenery = self.settings.scenery;
        world.glare = self.glare.clone();
        world.faded = self.faded.clone();
        for (index, piece) in self.pieces.iter().enumerate() {
            let gesture = self.gesture_at(index, t);
            let hold_at = |s: f64| match gesture {
                Some(g) => g.hold(s, &self.settings),
                None => HandHold::on_cloth(self.rest_before(index, t).center, Degrees(0.0)),
            };
            let rest = self.rest_before(index, t);
            let mut block = piece.block(rest);
            if let Some(g) = gesture {
                block.motion = Some(motion(&hold_at, rest.center, t, shutter));
                world.blocks.extend(g.hand(&block, &hold_at, t, shutter));
            }
            world.blocks.push(block);
        }
        for visit in &self.visits {
            if (visit.arrives..visit.leaves).contains(&t) {
                world.blocks.extend(visit.hand(t, &self.settings));
            }
        }
        for anchor in &self.anchors.anchors {
            world
                .blocks
                .push(Block::card(anchor.id, anchor.placement()));
        }
        world
    }

    /// Every unit's truth at frame `frame`.
    pub fn truth_at(&self, frame: u64) -> FrameTruth {
        let t = frame as f64 / self.settings.fps;
        let units = self
            .pieces
            .iter()
            .enumerate()
            .map(|(index, piece)| {
                let gesture = self.gesture_at(index, t);
                let (pose, lying, in_hand) = match gesture {
                    Some(g) => {
                        let hold = g.hold(t, &self.settings);
                        let moving = (g.starts..g.stops).contains(&t);
                        let lifted = matches!(g.kind, Kind::Carry { .. }) && moving;
                        let rest = self.rest_before(index, t);
                        let facing = rest.facing + hold.turn;
                        (
                            Pose {
                                center: hold.to,
                                facing,
                            },
                            !moving,
                            lifted,
                        )
                    }
                    None => (self.rest_before(index, t), true, false),
                };
                let touched = self.last_touch(index, t);
                UnitTruth {
                    unit: piece.id.clone(),
                    stands: piece.stands_at(pose),
                    lying,
                    in_hand,
                    untouched_for: match (gesture, touched) {
                        (Some(_), _) => None,
                        (None, Some(left)) => Some(Duration::from_secs_f64(t - left)),
                        (None, None) => Some(Duration::from_secs_f64(t + 3600.0)),
                    },
                }
            })
            .collect();
        FrameTruth {
            time: Duration::from_secs_f64(t),
            units,
        }
    }

    /// The gesture moving unit `index` at `t`, if a hand is on it.
    fn gesture_at(&self, index: usize, t: f64) -> Option<&Gesture> {
        self.gestures
            .iter()
            .find(|g| g.unit == index && (g.arrives..g.leaves).contains(&t))
    }

    /// When a hand last left unit `index` before `t`.
    fn last_touch(&self, index: usize, t: f64) -> Option<f64> {
        self.gestures
            .iter()
            .filter(|g| g.unit == index && g.leaves <= t)
            .map(|g| g.leaves)
            .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))))
    }

    /// Where unit `index` lay before the gesture on it at `t`, or lies if no hand is on it.
    fn rest_before(&self, index: usize, t: f64) -> Pose {
        self.gestures
            .iter()
            .rfind(|g| g.unit == index && g.arrives <= t)
            .map_or(self.pieces[index].start, |g| {
                if t < g.leaves { g.from } else { g.to }
            })
    }

    /// Every place unit `unit` has lain in the evening, its stands' footprints, with the time it
    /// came to lie there (zero where it started).
    pub fn rests_of(&self, unit: &str) -> Vec<(Duration, Vec<OrientedRect>)> {
        let Some(index) = self.pieces.iter().position(|p| p.id == unit) else {
            return Vec::new();
        };
        let piece = &self.pieces[index];
        std::iter::once((Duration::ZERO, piece.stands_at(piece.start)))
            .chain(
                self.gestures
                    .iter()
                    .filter(|g| g.unit == index)
                    .map(|g| (Duration::from_secs_f64(g.stops), piece.stands_at(g.to))),
            )
            .collect()
    }

    /// Every tag's id with its unit's id.
    pub fn tags(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.pieces
            .iter()
            .flat_map(|p| p.tags.iter().map(move |t| (*t, p.id.as_str())))
    }

    /// The side in pixels of the smallest tag of a stand lying at `pose` (for reports).
    pub fn tag_side(camera: &Camera, at: TablePoint) -> Option<Pixels> {
        let ahead = TablePoint::new(at.x + TAG_SIZE, at.y);
        let a = camera.project_at(&at, Inches(STAND_HEIGHT))?;
        let b = camera.project_at(&ahead, Inches(STAND_HEIGHT))?;
        Some(a.distance(&b))
    }
}

/// The rigid motion of a block over the exposure, from where a hand holds it at each moment.
fn motion(
    hold_at: &dyn Fn(f64) -> HandHold,
    rest: TablePoint,
    t: f64,
    shutter: f64,
) -> BlockMotion {
    BlockMotion {
        opens: hold_at(t - shutter / 2.0).pose(rest),
        closes: hold_at(t + shutter / 2.0).pose(rest),
    }
}

impl Piece {
    /// Its base lying at `pose`, its tags on it.
    fn block(&self, pose: Pose) -> Block {
        let frontage = STAND.0 * self.stands as f64;
        let right = heading(pose.facing - Degrees(90.0));
        let tags = self
            .tags
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let offset = (k as f64 - (self.stands as f64 - 1.0) / 2.0) * STAND.0;
                PrintedTag {
                    id: *id,
                    placement: calibration::TagPlacement {
                        center: pose.center + right * offset,
                        facing: pose.facing,
                        size: Inches(TAG_SIZE),
                        height: Inches(STAND_HEIGHT),
                    },
                }
            })
            .collect();
        Block {
            footprint: OrientedRect::from_center(
                pose.center,
                pose.facing,
                Inches(frontage),
                Inches(STAND.1),
            ),
            height: Inches(STAND_HEIGHT),
            colour: self.colour,
            tags,
            figures: true,
            motion: None,
        }
    }

    /// Its stands' footprints with its base at `pose`.
    fn stands_at(&self, pose: Pose) -> Vec<OrientedRect> {
        let right = heading(pose.facing - Degrees(90.0));
        (0..self.stands)
            .map(|k| {
                let offset = (k as f64 - (self.stands as f64 - 1.0) / 2.0) * STAND.0;
                OrientedRect::from_center(
                    pose.center + right * offset,
                    pose.facing,
                    Inches(STAND.0),
                    Inches(STAND.1),
                )
            })
            .collect()
    }

    fn frame(&self, pose: Pose) -> OrientedRect {
        OrientedRect::from_center(
            pose.center,
            pose.facing,
            Inches(STAND.0 * self.stands as f64),
            Inches(STAND.1),
        )
    }
}

/// The direction from the table towards player `player`'s edge: the near edge (the camera's
/// side) for the first, the far edge for the second.
fn towards_player(player: usize) -> TableVector {
    if player == 0 {
        TableVector::new(0.0, -1.0)
    } else {
        TableVector::new(0.0, 1.0)
    }
}

/// A smooth step from 0 to 1.
fn ease(s: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    s * s * (3.0 - 2.0 * s)
}

impl Gesture {
    /// Where the hand holds the unit at `t`: on the cloth where it lay until it starts, on
    /// its way, on the cloth where it ends once it stops.
    fn hold(&self, t: f64, settings: &EveningSettings) -> HandHold {
        let turn = self.from.facing.turn_to(self.to.facing);
        let span = (self.stops - self.starts).max(1e-6);
        let s = ((t - self.starts) / span).clamp(0.0, 1.0);
        let travel = self.to.center - self.from.center;
        match self.kind {
            Kind::Carry {
                lift, tilt, toward, ..
            } => {
                // Up in the first quarter of a second, down in the last; carried in between,
                // with a hand's tremor.
                let up = ((t - self.starts) / 0.25).clamp(0.0, 1.0);
                let down = ((self.stops - t) / 0.25).clamp(0.0, 1.0);
                let raised = ease(up.min(down));
                let along =
                    ease(((t - self.starts - 0.2) / (span - 0.4).max(0.05)).clamp(0.0, 1.0));
                let wobble = (settings.seed as f64 + t * 37.0).sin() * 0.03 * raised;
                let shake = TableVector::new(wobble, (t * 29.0).cos() * 0.03 * raised);
                HandHold {
                    to: self.from.center + travel * along + shake,
                    turn: Degrees(turn.0 * along),
                    rise: Inches(lift * raised),
                    tilt: Degrees(tilt * raised + (t * 23.0).sin() * raised),
                    toward: Degrees(toward),
                }
            }
            Kind::Slide { .. } | Kind::UnderHand => HandHold::on_cloth(
                self.from.center + travel * ease(s),
                Degrees(turn.0 * ease(s)),
            ),
        }
    }

    /// The hand and arm moving the unit: fingers gripping the base's edge towards the player
    /// (over part of its tags), the back of the hand and the arm beyond it towards the
    /// player's edge; coming in before the unit moves and going after.
    fn hand(
        &self,
        base: &Block,
        hold_at: &dyn Fn(f64) -> HandHold,
        t: f64,
        shutter: f64,
    ) -> Vec<Block> {
        let rest = self.from;
        let frame = base.footprint;
        let out = towards_player(self.player);
        // The base's edge nearest the player: its rear or its front.
        let forward = heading(rest.facing);
        let sign = if forward.dot(&out) >= 0.0 { 1.0 } else { -1.0 };
        let edge_normal = forward * sign;
        let cover = match self.kind {
            Kind::Carry { cover, .. } | Kind::Slide { cover } => cover,
            Kind::UnderHand => 0.0,
        };
        // Coming in and going away: the hand slides in from towards the player.
        let away = |time: f64| {
            let coming =
                ((self.starts - time) / (self.starts - self.arrives).max(1e-6)).clamp(0.0, 1.0);
            let going =
                ((time - self.stops) / (self.leaves - self.stops).max(1e-6)).clamp(0.0, 1.0);
            6.0 * coming.max(going)
        };
        let grip = |time: f64| {
            let mut hold = hold_at(time);
            hold.to += out * away(time);
            hold
        };
        if matches!(self.kind, Kind::UnderHand) {
            // A whole hand over the unit, moving it.
            let palm =
                OrientedRect::from_center(rest.center, Degrees(90.0), Inches(3.5), Inches(4.5));
            let hand = Block {
                footprint: palm,
                height: Inches(2.2),
                colour: SKIN,
                tags: Vec::new(),
                figures: false,
                motion: Some(motion(&|s| follow(&grip(s)), rest.center, t, shutter)),
            };
            let follows = |s| follow(&grip(s));
            return vec![
                hand,
                arm(rest.center, rest.center, out, 2.0, &follows, t, shutter),
            ];
        }
        gripping(&frame, rest.center, edge_normal, cover, &grip, t, shutter)
    }
}

/// A hand gripping a base by its edge on the `edge_normal` side (towards the player), fingers
/// `cover` inches over its top: the fingers, the back of the hand beyond the edge and the arm
/// out to the player's edge, following `grip` (which takes `rest`, the base's centre as it lay,
/// to where the hand holds it) over the exposure.
fn gripping(
    frame: &OrientedRect,
    rest: TablePoint,
    edge_normal: TableVector,
    cover: f64,
    grip: &dyn Fn(f64) -> HandHold,
    t: f64,
    shutter: f64,
) -> Vec<Block> {
    let half_depth = frame.depth().0 / 2.0;
    let facing = frame.facing();
    let skin = |footprint: OrientedRect, height: f64, motion: BlockMotion| Block {
        footprint,
        height: Inches(height),
        colour: SKIN,
        tags: Vec::new(),
        figures: false,
        motion: Some(motion),
    };
    let fingers_at = rest + edge_normal * (half_depth - cover / 2.0 + 0.15);
    let fingers = skin(
        OrientedRect::from_center(
            fingers_at,
            facing,
            Inches(frame.width().0.min(2.4)),
            Inches(cover + 0.3),
        ),
        STAND_HEIGHT + 0.45,
        motion(grip, rest, t, shutter),
    );
    let follows = |s| follow(&grip(s));
    let back_at = rest + edge_normal * (half_depth + 1.6);
    let back = skin(
        OrientedRect::from_center(back_at, facing, Inches(3.0), Inches(2.6)),
        STAND_HEIGHT + 1.4,
        motion(&follows, rest, t, shutter),
    );
    let out = edge_normal;
    vec![
        fingers,
        back,
        arm(back_at, rest, out, STAND_HEIGHT + 1.0, &follows, t, shutter),
    ]
}

/// Blocks lying on their footprints (the stands of one unit) lifted as one by a hand: each
/// block posed by `hold` (taken about `rest`, the unit's centre as it lay), and the hand
/// gripping the unit's `frame` by its edge towards the player (`out`), fingers `cover` inches
/// over it; a long, shallow base is gripped by its end, as a hand takes one, clear of the
/// tag at its middle. Held still: no blur.
pub fn held_in_hand(
    blocks: &mut [Block],
    frame: &OrientedRect,
    out: TableVector,
    cover: Inches,
    hold: HandHold,
) -> Vec<Block> {
    let rest = frame.center();
    for block in blocks.iter_mut() {
        block.motion = Some(BlockMotion::still(hold.pose(rest)));
    }
    // The edge gripped, as the front of a frame turned to face it.
    let gripped = if frame.width().0 > 2.0 * frame.depth().0 {
        let right = Degrees(frame.facing().0 - 90.0);
        let end = if heading(right).dot(&out) >= 0.0 {
            right
        } else {
            Degrees(right.0 + 180.0)
        };
        OrientedRect::from_center(rest, end, frame.depth(), frame.width())
    } else {
        *frame
    };
    let forward = heading(gripped.facing());
    let edge_normal = if forward.dot(&out) >= 0.0 {
        forward
    } else {
        -forward
    };
    gripping(&gripped, rest, edge_normal, cover.0, &|_| hold, 0.0, 0.0)
}

/// A hold that follows a block's place and height but neither turns nor tilts with it: the
/// back of a hand and an arm.
fn follow(hold: &HandHold) -> HandHold {
    HandHold {
        tilt: Degrees(0.0),
        turn: Degrees(0.0),
        ..*hold
    }
}

/// An arm from `from` out to the player's edge, its underside `height` above the cloth,
/// following what the hand holds: `hold_at` takes `anchor` (where the hand held it when the
/// arm was laid out) to where it is.
fn arm(
    from: TablePoint,
    anchor: TablePoint,
    out: TableVector,
    height: f64,
    hold_at: &dyn Fn(f64) -> HandHold,
    t: f64,
    shutter: f64,
) -> Block {
    let length = 14.0;
    let center = from + out * (length / 2.0);
    let facing = rules::geometry::facing_of(out);
    // A box raised off the cloth: modelled as a block lying on the cloth, then lifted.
    let footprint = OrientedRect::from_center(center, facing, Inches(3.2), Inches(length));
    let lifted = |s: f64| {
        let mut hold = hold_at(s);
        hold.to += center - anchor;
        hold.rise = hold.rise + Inches(height);
        hold
    };
    Block {
        footprint,
        height: Inches(1.6),
        colour: SLEEVE,
        tags: Vec::new(),
        figures: false,
        motion: Some(motion(&lifted, center, t, shutter)),
    }
}

impl Visit {
    /// The hand resting (or the arm reaching) at `t`.
    fn hand(&self, t: f64, settings: &EveningSettings) -> Vec<Block> {
        let out = towards_player(self.player);
        let shutter = settings.shutter.as_secs_f64();
        let at = |time: f64| {
            let coming = ((self.arrives + 0.3 - time) / 0.3).clamp(0.0, 1.0);
            let going = ((time - (self.leaves - 0.3)) / 0.3).clamp(0.0, 1.0);
            let drift = TableVector::new(0.2 * (time * 1.3).sin(), 0.0);
            HandHold {
                to: self.at + out * (8.0 * coming.max(going)) + drift,
                rise: Inches(self.height),
                ..HandHold::on_cloth(self.at, Degrees(0.0))
            }
        };
        let mut blocks = vec![arm(
            self.at,
            self.at,
            out,
            self.height + 1.0,
            &at,
            t,
            shutter,
        )];
        if !self.reach {
            blocks.push(Block {
                footprint: OrientedRect::from_center(
                    self.at,
                    Degrees(90.0),
                    Inches(3.5),
                    Inches(4.5),
                ),
                height: Inches(1.6),
                colour: SKIN,
                tags: Vec::new(),
                figures: false,
                motion: Some(motion(&at, self.at, t, shutter)),
            });
        }
        blocks
    }
}

/// Lay the units out: two sides facing each other across the middle, trays of two or three
/// stands and single bases, none closer than [`ROOM`] to another.
fn deploy(settings: &EveningSettings, first_tag: u32, noise: &mut Noise) -> Vec<Piece> {
    let table = settings.table;
    let mut pieces: Vec<Piece> = Vec::new();
    let mut next_tag = first_tag;
    let mut attempts = 0;
    while pieces.len() < settings.units && attempts < settings.units * 200 {
        attempts += 1;
        let side = pieces.len() % 2;
        let stands = match noise.uniform() {
            u if u < 0.35 => 1,
            u if u < 0.75 => 2,
            _ => 3,
        };
        let y0 = if side == 0 {
            EDGE
        } else {
            table.depth / 2.0 + 2.0
        };
        let y1 = if side == 0 {
            table.depth / 2.0 - 2.0
        } else {
            table.depth - EDGE
        };
        let pose = Pose {
            center: TablePoint::new(
                EDGE + 3.0 + noise.uniform() * (table.width - 2.0 * EDGE - 6.0),
                y0 + noise.uniform() * (y1 - y0),
            ),
            facing: Degrees(if side == 0 { 90.0 } else { 270.0 } + (noise.uniform() - 0.5) * 30.0),
        };
        let candidate = Piece {
            id: format!("{}-{}", ["red", "blue"][side], pieces.len() / 2 + 1),
            tags: (0..stands).map(|k| next_tag + k as u32).collect(),
            stands,
            start: pose,
            colour: [Rgb(168, 42, 38), Rgb(40, 64, 150)][side],
        };
        let frame = candidate.frame(pose);
        let clear = pieces
            .iter()
            .all(|p| p.frame(p.start).gap_to(&frame).0 >= ROOM * 2.0);
        if clear {
            next_tag += stands as u32;
            pieces.push(candidate);
        }
    }
    pieces
}

/// The roster of the evening: each piece a unit of its stands (a line), one tag a stand.
fn roster_of(settings: &EveningSettings, pieces: &[Piece], first_tag: u32) -> Roster {
    let units = pieces
        .iter()
        .map(|piece| UnitDoc {
            id: piece.id.clone(),
            name: Some(unit_name(&piece.id, piece.stands)),
            side: piece.id.split('-').next().unwrap_or("red").to_owned(),
            kind: if piece.stands == 1 {
                UnitKind::Artillery
            } else {
                UnitKind::Infantry
            },
            formation: Some(if piece.stands == 1 {
                Formation::Deployed
            } else {
                Formation::Line
            }),
            front_center: None,
            facing: None,
            width: None,
            depth: None,
            weapon: None,
            brigade: None,
            stands: Some(
                piece
                    .stands_at(piece.start)
                    .iter()
                    .map(|s| StandDoc {
                        center: s.center(),
                        facing: s.facing().0,
                        width: s.width().0,
                        depth: s.depth().0,
                        sd: None,
                    })
                    .collect(),
            ),
            size: None,
            stats: None,
            engaged: None,
            disordered: None,
            shaken: None,
            momentum: None,
            figures: None,
        })
        .collect();
    let table = TableDoc {
        width: settings.table.width,
        depth: settings.table.depth,
    };
    let doc = SceneDoc::units_on(RulesetId::BlackPowder, table, units);
    let defaults = TagDefaults {
        size: TAG_SIZE,
        height: STAND_HEIGHT,
        ..TagDefaults::default()
    };
    // Every unit is a line of stands or a deployed battery on the table, each made here:
    // a scene it always makes.
    let scene = Scene::from_doc(doc, "the evening's game")
        .unwrap_or_else(|e| unreachable!("the evening's units make a scene: {e}"));
    Roster::for_scene(&scene, defaults, first_tag)
}

fn unit_name(id: &str, stands: usize) -> String {
    let (side, number) = id.split_once('-').unwrap_or((id, ""));
    let what = if stands == 1 { "Battery" } else { "Battalion" };
    format!(
        "{} {what} {number}",
        if side == "red" { "Red" } else { "Blue" }
    )
}

/// The share of moves that cross a seam between two cameras' shares, with several cameras.
pub const ACROSS_SEAM: f64 = 0.3;

/// A unit moved across a seam lies this near it first, inches.
const NEAR_SEAM: f64 = 8.0;

/// Where one camera's share of the table meets the next's, along its length.
fn seams(settings: &EveningSettings) -> Vec<f64> {
    let shares = settings.cameras.max(1);
    (1..shares)
        .map(|k| settings.table.width * k as f64 / shares as f64)
        .collect()
}

/// The evening being planned: who moves what, when.
struct Plan {
    gestures: Vec<Gesture>,
    visits: Vec<Visit>,
    /// Where each unit lies once the gestures planned so far are done, and when its last
    /// gesture ends.
    rests: Vec<(Pose, f64)>,
    /// Each unit's stands abreast.
    stands: Vec<usize>,
    /// Each unit's side: the player who moves it (with two players).
    sides: Vec<usize>,
}

impl Plan {
    fn new(pieces: &[Piece]) -> Plan {
        Plan {
            gestures: Vec::new(),
            visits: Vec::new(),
            rests: pieces.iter().map(|p| (p.start, 0.0)).collect(),
            stands: pieces.iter().map(|p| p.stands).collect(),
            sides: pieces
                .iter()
                .map(|p| usize::from(p.id.starts_with("blue")))
                .collect(),
        }
    }

    /// Each player in turn: a gesture, a pause, the next, until the evening ends.
    fn play(&mut self, settings: &EveningSettings, noise: &mut Noise) {
        let players = settings.players.clamp(1, 2);
        let mut free: Vec<f64> = vec![1.0; players];
        free[players - 1] += 0.7;
        let end = settings.seconds - 1.0;
        loop {
            let Some((player, &at)) = free.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1))
            else {
                return;
            };
            if at >= end {
                return;
            }
            let done = self.gesture(player, at, settings, noise);
            free[player] = done + 0.4 + noise.uniform() * 1.2;
        }
    }

    /// One gesture of `player` starting at `at`; when it ends.
    fn gesture(
        &mut self,
        player: usize,
        at: f64,
        settings: &EveningSettings,
        noise: &mut Noise,
    ) -> f64 {
        let roll = noise.uniform();
        if roll < 0.12 {
            return self.visit(player, at, true, noise);
        }
        if roll < 0.22 {
            return self.visit(player, at, false, noise);
        }
        let kind = match roll {
            r if r < 0.62 => Kind::Carry {
                lift: 1.0 + 3.0 * noise.uniform(),
                tilt: 30.0 * noise.uniform(),
                toward: 360.0 * noise.uniform(),
                cover: 0.1 + 0.7 * noise.uniform(),
            },
            r if r < 0.9 => Kind::Slide {
                cover: 0.1 + 0.5 * noise.uniform(),
            },
            _ => Kind::UnderHand,
        };
        let side = (settings.players > 1).then_some(player);
        // With several cameras, some moves cross from one camera's share into the next (no
        // number is drawn for this with one camera: its evenings stay as they were).
        let across = settings.cameras > 1 && noise.uniform() < ACROSS_SEAM;
        let seams = if across { seams(settings) } else { Vec::new() };
        let Some((unit, seam)) = self.free_unit(at, side, &seams, noise) else {
            return at + 0.5;
        };
        let from = self.rests[unit].0;
        let Some(to) = self.destination(unit, from, kind, seam, settings, noise) else {
            return at + 0.3;
        };
        let distance = (to.center - from.center).norm();
        let (arrives, starts) = (at, at + 0.4);
        let speed = match kind {
            Kind::Carry { .. } => 9.0 + 6.0 * noise.uniform(),
            Kind::Slide { .. } => 2.0 + 3.0 * noise.uniform(),
            Kind::UnderHand => 2.0 + 2.0 * noise.uniform(),
        };
        let stops = starts + 0.5 + distance / speed;
        let leaves = stops + 0.3 + 0.4 * noise.uniform();
        if leaves >= settings.seconds - 0.5 {
            return settings.seconds;
        }
        self.gestures.push(Gesture {
            unit,
            player,
            kind,
            from,
            to,
            arrives,
            starts,
            stops,
            leaves,
        });
        self.rests[unit] = (to, leaves);
        leaves
    }

    /// A hand resting over the table (or an arm reaching across it) for a while.
    fn visit(&mut self, player: usize, at: f64, reach: bool, noise: &mut Noise) -> f64 {
        let unit = (noise.uniform() * self.rests.len() as f64) as usize % self.rests.len().max(1);
        let Some(&(pose, _)) = self.rests.get(unit) else {
            return at + 0.5;
        };
        let leaves = at + 1.5 + 2.5 * noise.uniform();
        self.visits.push(Visit {
            player,
            at: pose.center + TableVector::new(noise.uniform() - 0.5, noise.uniform() - 0.5),
            height: if reach {
                4.0 + 2.0 * noise.uniform()
            } else {
                1.0 * noise.uniform()
            },
            arrives: at,
            leaves,
            reach,
        });
        leaves
    }

    /// A unit of `side` (any, if `None`) no hand is on, nor will be by then; with `seams`,
    /// one lying within [`NEAR_SEAM`] of one of them, and that seam.
    fn free_unit(
        &self,
        at: f64,
        side: Option<usize>,
        seams: &[f64],
        noise: &mut Noise,
    ) -> Option<(usize, Option<f64>)> {
        let n = self.rests.len();
        let start = (noise.uniform() * n as f64) as usize;
        let near_seam = |u: usize| {
            let x = self.rests[u].0.center.x;
            seams
                .iter()
                .copied()
                .find(|seam| (seam - x).abs() < NEAR_SEAM)
        };
        (0..n)
            .map(|k| (start + k) % n)
            .filter(|&u| side.is_none_or(|s| self.sides[u] == s))
            .filter(|&u| self.rests[u].1 + 0.5 < at)
            .find_map(|u| match seams {
                [] => Some((u, None)),
                _ => near_seam(u).map(|seam| (u, Some(seam))),
            })
    }

    /// Somewhere for a unit to go: 2–10" away (across `seam`, 1–4" past it, if given),
    /// turned a little, on the table, clear of every other unit where it lies or is going,
    /// and for a slide clear all the way.
    fn destination(
        &self,
        unit: usize,
        from: Pose,
        kind: Kind,
        seam: Option<f64>,
        settings: &EveningSettings,
        noise: &mut Noise,
    ) -> Option<Pose> {
        for _ in 0..40 {
            let (reach, turn) = match kind {
                Kind::Carry { .. } => (2.0 + 8.0 * noise.uniform(), 40.0 * (noise.uniform() - 0.5)),
                Kind::Slide { .. } => (2.0 + 6.0 * noise.uniform(), 10.0 * (noise.uniform() - 0.5)),
                Kind::UnderHand => (1.0 + 2.0 * noise.uniform(), 0.0),
            };
            let step = match seam {
                Some(seam) => {
                    let to_seam = seam - from.center.x;
                    let past = to_seam.signum() * (1.0 + 3.0 * noise.uniform());
                    TableVector::new(to_seam + past, 2.0 * (noise.uniform() - 0.5))
                }
                None => {
                    // Mostly forward or back, as units move in a game.
                    let ahead = heading(from.facing);
                    let across = TableVector::new(-ahead.y, ahead.x);
                    let sideways = 0.5 * (noise.uniform() - 0.5);
                    let sense = if noise.uniform() < 0.7 { 1.0 } else { -1.0 };
                    (ahead * sense + across * sideways).normalize() * reach
                }
            };
            let to = Pose {
                center: from.center + step,
                facing: from.facing + Degrees(turn),
            };
            if !self.clear(unit, to, settings) {
                continue;
            }
            let sliding = !matches!(kind, Kind::Carry { .. });
            let path_clear = !sliding
                || (1..8).all(|k| {
                    let s = f64::from(k) / 8.0;
                    let on_way = Pose {
                        center: from.center + step * s,
                        facing: from.facing + Degrees(turn * s),
                    };
                    self.clear(unit, on_way, settings)
                });
            if path_clear {
                return Some(to);
            }
        }
        None
    }

    /// Whether unit `unit` lying at `pose` stays on the table and clear of every other unit's
    /// rest (its last planned one).
    fn clear(&self, unit: usize, pose: Pose, settings: &EveningSettings) -> bool {
        let frame = frame_of(self.stands[unit], pose);
        let inside = frame.corners().iter().all(|c| {
            c.x > EDGE
                && c.y > EDGE
                && c.x < settings.table.width - EDGE
                && c.y < settings.table.depth - EDGE
        });
        inside
            && self.rests.iter().enumerate().all(|(other, (rest, _))| {
                other == unit || frame.gap_to(&frame_of(self.stands[other], *rest)).0 >= ROOM
            })
    }

    /// The moves the gestures make, in the order they end.
    fn moves(&self, pieces: &[Piece]) -> Vec<TrueMove> {
        let mut moves: Vec<TrueMove> = self
            .gestures
            .iter()
            .map(|g| TrueMove {
                unit: pieces[g.unit].id.clone(),
                from: g.from,
                to: g.to,
                touched: Duration::from_secs_f64(g.arrives),
                put_down: Duration::from_secs_f64(g.stops),
                released: Duration::from_secs_f64(g.leaves),
                lifted: matches!(g.kind, Kind::Carry { .. }),
                hidden: matches!(g.kind, Kind::UnderHand),
            })
            .collect();
        moves.sort_by_key(|m| m.released);
        moves
    }
}

fn frame_of(stands: usize, pose: Pose) -> OrientedRect {
    OrientedRect::from_center(
        pose.center,
        pose.facing,
        Inches(STAND.0 * stands.max(1) as f64),
        Inches(STAND.1),
    )
}
