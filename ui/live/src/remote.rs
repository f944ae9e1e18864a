//! A camera on another machine (a small board computer at the far end of the table): it
//! detects, places and tracks its tags itself (`vedette camera --mqtt`) and sends them, with
//! each frame's capture time, over the hall's MQTT broker to the machine that runs the table,
//! whose rig fuses them with its own cameras' (see [`crate::pipeline`]).
//!
//! Topics, under the table's (`vedette/<table>/camera/<camera>/…`):
//! - `calibration`: the camera's calibration into the table's frame, retained, sent again
//!   whenever it changes (a lens learnt better, a new calibration): a table started late has
//!   it at once;
//! - `tags`: each frame's tags, placed: those in view now and those held where they last lay,
//!   with the frame's capture time (milliseconds of the Unix clock — the machines' clocks are
//!   taken to agree, as NTP keeps them on a hall's network). Never retained, at most once:
//!   an old frame is worth nothing;
//! - `online`: `true` while it sends, `false` when it stops (the broker's last will, when its
//!   machine just goes away).
//!
//! Decisions:
//! - A tag travels as its pose and error bar in plain numbers ([`WireTag`]), its role as the
//!   remote camera's roster names it.
//! - Nothing here waits for the broker: a frame the broker cannot take now is dropped; the
//!   table sees the camera late, then lost, and says so.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use calibration::{Pixels, TableCalibration};
use nalgebra::Matrix3;
use rules::geometry::{TablePoint, TableVector};
use rules::units::{Degrees, Inches};
use rumqttc::{AsyncClient, Event, LastWill, Packet, QoS};
use serde::{Deserialize, Serialize};
use vision::locate::{LocatedTag, TagPose, TagRole};
use vision::uncertainty::TagUncertainty;

use crate::mqtt::{self, Broker, topic, topic_name};

/// A tag as it travels: its pose and error bar in plain numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireTag {
    /// Its id.
    pub id: u32,
    /// What it is, as the remote camera's roster has it.
    pub role: TagRole,
    /// Its centre, table inches.
    pub x: f64,
    /// Its centre, table inches.
    pub y: f64,
    /// Where its top points, degrees.
    pub facing: f64,
    /// The height it was placed at, inches.
    pub height: f64,
    /// Its side as measured on the table, inches.
    pub measured_size: f64,
    /// Its side in the picture, pixels.
    pub pixels: f64,
    /// Covariance of x, y (square inches) and facing (square radians), row by row.
    pub covariance: [f64; 9],
    /// How far its centre moves for each inch it is higher than stated.
    pub per_height: [f64; 2],
}

impl From<&LocatedTag> for WireTag {
    fn from(tag: &LocatedTag) -> WireTag {
        let pose = &tag.pose;
        let mut covariance = [0.0; 9];
        for (out, value) in covariance
            .iter_mut()
            .zip(pose.uncertainty.covariance.transpose().iter())
        {
            *out = *value;
        }
        WireTag {
            id: pose.id,
            role: tag.role.clone(),
            x: pose.center.x,
            y: pose.center.y,
            facing: pose.facing.0,
            height: pose.height.0,
            measured_size: pose.measured_size.0,
            pixels: pose.pixels.0,
            covariance,
            per_height: [pose.uncertainty.per_height.x, pose.uncertainty.per_height.y],
        }
    }
}

impl WireTag {
    /// The tag placed, if its numbers are numbers.
    pub fn tag(&self) -> Option<LocatedTag> {
        let numbers = [self.x, self.y, self.facing, self.height, self.measured_size];
        if !numbers
            .iter()
            .chain(&self.covariance)
            .all(|v| v.is_finite())
        {
            return None;
        }
        Some(LocatedTag {
            pose: TagPose {
                id: self.id,
                center: TablePoint::new(self.x, self.y),
                facing: Degrees(self.facing),
                height: Inches(self.height),
                measured_size: Inches(self.measured_size),
                pixels: Pixels(self.pixels),
                uncertainty: TagUncertainty {
                    covariance: Matrix3::from_row_slice(&self.covariance),
                    per_height: TableVector::new(self.per_height[0], self.per_height[1]),
                },
            },
            role: self.role.clone(),
        })
    }
}

/// One frame's tags, as a remote camera sends them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TagsMessage {
    /// Frames sent before this one.
    pub seq: u64,
    /// When the frame was captured, milliseconds of the Unix clock.
    pub captured_ms: u64,
    /// Frames the camera processed a second.
    pub fps: f64,
    /// The tags in view now.
    pub now: Vec<WireTag>,
    /// The tags held where they last lay, not in view now.
    pub held: Vec<WireTag>,
}

/// Milliseconds of the Unix clock at `time`.
pub fn unix_ms(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A camera's topic.
fn camera_topic(broker: &Broker, camera: &str, leaf: &str) -> String {
    let table = broker.table.clone().unwrap_or_else(|| "table".into());
    topic(&table, &format!("camera/{}/{leaf}", topic_name(camera)))
}

/// Sends one camera's calibration and tags to the broker, on a thread of its own.
pub struct Sender {
    client: AsyncClient,
    tags: String,
    calibration: String,
    online: String,
    sent: Option<TableCalibration>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Sender {
    /// Connect (in the background: a broker not there yet is waited for) as camera `camera`.
    pub fn connect(broker: &Broker, camera: &str) -> std::io::Result<Sender> {
        let id = format!(
            "vedette-camera-{}-{}",
            topic_name(camera),
            std::process::id()
        );
        let mut options = mqtt::options(broker, &id);
        let online = camera_topic(broker, camera, "online");
        options.set_last_will(LastWill::new(&online, "false", QoS::AtLeastOnce, true));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let (client, events) = AsyncClient::new(options, 16);
        let said = client.clone();
        let online_topic = online.clone();
        runtime.spawn(mqtt::drive(events, broker.clone(), move |event| {
            if let Event::Incoming(Packet::ConnAck(_)) = event {
                mqtt::say_again(&said, &[], &[(online_topic.clone(), b"true".to_vec())]);
            }
        }));
        tracing::info!("sending camera {camera} to {broker}");
        Ok(Sender {
            client,
            tags: camera_topic(broker, camera, "tags"),
            calibration: camera_topic(broker, camera, "calibration"),
            online,
            sent: None,
            runtime: Some(runtime),
        })
    }

    /// Send the calibration, if it is not the one last sent.
    pub fn calibration(&mut self, calibration: &TableCalibration) {
        if self.sent.as_ref() == Some(calibration) {
            return;
        }
        let Ok(text) = serde_json::to_string(calibration) else {
            return;
        };
        // Kept by the broker: sent again on the next frame if it cannot be taken now.
        if self
            .client
            .try_publish(&self.calibration, QoS::AtLeastOnce, true, text)
            .is_ok()
        {
            self.sent = Some(calibration.clone());
        }
    }

    /// Send a frame's tags; dropped if the broker cannot take them now.
    pub fn tags(&self, message: &TagsMessage) {
        let Ok(text) = serde_json::to_string(message) else {
            return;
        };
        if self
            .client
            .try_publish(&self.tags, QoS::AtMostOnce, false, text)
            .is_err()
        {
            tracing::trace!("the broker is not taking frames now: one dropped");
        }
    }
}

impl Drop for Sender {
    fn drop(&mut self) {
        let _ = self
            .client
            .try_publish(&self.online, QoS::AtLeastOnce, true, "false");
        if let Some(runtime) = self.runtime.take() {
            // Time for the last words to leave.
            std::thread::sleep(Duration::from_millis(200));
            runtime.shutdown_timeout(Duration::from_millis(500));
        }
    }
}

/// What a remote camera said.
#[derive(Clone, Debug)]
pub enum Heard {
    /// Its calibration, new or again.
    Calibration(Box<TableCalibration>),
    /// A frame's tags, and how long ago (by the two machines' clocks) the frame was captured.
    Tags {
        /// How long ago it was captured (none if the clocks put it in the future).
        age: Duration,
        /// The message, its tags still as they travelled.
        message: TagsMessage,
    },
    /// Something on its topics that is not what a camera sends: why.
    Junk(String),
}

/// Listens to a remote camera on a thread of its own until dropped.
pub struct Listener {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Listener {
    /// Listen to camera `camera` on `broker`, handing `on` everything it says.
    pub fn start(
        broker: Broker,
        camera: &str,
        on: impl FnMut(Heard) + Send + 'static,
    ) -> std::io::Result<Listener> {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let camera = camera.to_owned();
        let thread = std::thread::Builder::new()
            .name(format!("vedette-remote-{camera}"))
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime.block_on(listen(broker, camera, on, stopped)),
                    Err(e) => tracing::error!("cannot listen to a remote camera: {e}"),
                }
            })?;
        Ok(Listener {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// How often a listener looks whether it should stop.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// Hand `on` what `camera` says on `broker` until `stop` is set, reconnecting (backing off)
/// as the table's other MQTT clients do.
async fn listen(
    broker: Broker,
    camera: String,
    mut on: impl FnMut(Heard) + Send,
    stop: Arc<AtomicBool>,
) {
    let id = format!(
        "vedette-table-{}-{}",
        topic_name(&camera),
        crate::Token::random()
    );
    let (client, events) = AsyncClient::new(mqtt::options(&broker, &id), 16);
    let topics = [
        camera_topic(&broker, &camera, "calibration"),
        camera_topic(&broker, &camera, "tags"),
    ];
    let driven = mqtt::drive(events, broker, |event| match event {
        Event::Incoming(Packet::ConnAck(_)) => {
            // Subscribed again on each connection: the broker may have restarted.
            mqtt::say_again(&client, &topics, &[]);
        }
        Event::Incoming(Packet::Publish(publish)) if publish.payload.len() > mqtt::MAX_PACKET => {
            on(Heard::Junk(format!(
                "a message of {} bytes: the most is {}",
                publish.payload.len(),
                mqtt::MAX_PACKET
            )));
        }
        Event::Incoming(Packet::Publish(publish)) => {
            on(heard(publish.topic == topics[0], &publish.payload));
        }
        _ => {}
    });
    tokio::select! {
        () = driven => {}
        () = stopped(&stop) => {}
    }
}

/// Until `stop` is set.
async fn stopped(stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(STOP_CHECK).await;
    }
}

/// What a message on a camera's topic says.
fn heard(calibration: bool, payload: &[u8]) -> Heard {
    if calibration {
        return match serde_json::from_slice::<TableCalibration>(payload) {
            Ok(c) => Heard::Calibration(Box::new(c)),
            Err(e) => Heard::Junk(format!("its calibration cannot be read: {e}")),
        };
    }
    match serde_json::from_slice::<TagsMessage>(payload) {
        Ok(message) => {
            let now = unix_ms(SystemTime::now());
            Heard::Tags {
                age: Duration::from_millis(now.saturating_sub(message.captured_ms)),
                message,
            }
        }
        Err(e) => Heard::Junk(format!("a frame's tags cannot be read: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_travels_whole() {
        let tag = LocatedTag {
            pose: TagPose {
                id: 42,
                center: TablePoint::new(61.25, 30.5),
                facing: Degrees(93.5),
                height: Inches(0.16),
                measured_size: Inches(0.98),
                pixels: Pixels(17.2),
                uncertainty: TagUncertainty {
                    covariance: Matrix3::new(4e-4, 1e-5, 2e-6, 1e-5, 3e-4, 3e-6, 2e-6, 3e-6, 1e-4),
                    per_height: TableVector::new(0.12, -0.3),
                },
            },
            role: TagRole::Stand {
                unit: "1st-foot".into(),
                stand: 2,
            },
        };
        let text = serde_json::to_string(&WireTag::from(&tag)).expect("written");
        let back: WireTag = serde_json::from_str(&text).expect("read");
        assert_eq!(back.tag(), Some(tag));
    }

    #[test]
    fn junk_is_named_not_taken() {
        assert!(matches!(heard(false, b"{\"seq\":1}"), Heard::Junk(_)));
        assert!(matches!(heard(true, b"not json"), Heard::Junk(_)));
        let nan = WireTag {
            x: f64::NAN,
            ..WireTag::from(&LocatedTag {
                pose: TagPose {
                    id: 1,
                    center: TablePoint::new(1.0, 1.0),
                    facing: Degrees(0.0),
                    height: Inches(0.0),
                    measured_size: Inches(1.0),
                    pixels: Pixels(20.0),
                    uncertainty: TagUncertainty {
                        covariance: Matrix3::identity(),
                        per_height: TableVector::zeros(),
                    },
                },
                role: TagRole::Unknown,
            })
        };
        assert_eq!(nan.tag(), None);
    }
}
