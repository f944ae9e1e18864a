//! Ray casting the synthetic table through the camera model.

use std::collections::HashMap;

use calibration::{Camera, Intrinsics, Pixels, TablePoint3};
use nalgebra::{Isometry3, Vector3};
use opencv::core::{CV_8UC3, Mat, MatTraitManual, Scalar, Size};
use opencv::imgproc;
use rules::geometry::TablePoint;

use super::colour::Rgb;
use super::noise::Noise;
use super::world::{Block, Slab, SyntheticTable};
use crate::error::VisionError;
use crate::pattern::TagTexture;

/// A camera's faults, applied after the ideal image is rendered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Effects {
    /// Rays per pixel along each axis (3 → 9 rays a pixel).
    pub supersample: u32,
    /// Gaussian blur (defocus, motion), sigma.
    pub blur: Pixels,
    /// Sensor noise, standard deviation in grey levels.
    pub noise: f64,
    /// Uneven light: 0 for flat, 0.3 for a strong fall-off across the table.
    pub uneven_light: f64,
    /// JPEG compression quality, if the frame is compressed (an MJPEG webcam sends 55–85).
    pub jpeg_quality: Option<u8>,
    /// The exposure's gain: 1 as metered; an auto-exposure swinging as an arm passes over
    /// the table gives 0.6–1.4 (what is brighter than white clips).
    pub gain: f64,
    /// Seed of the noise.
    pub seed: u64,
}

impl Effects {
    /// A perfect camera: antialiased, nothing else.
    pub const IDEAL: Effects = Effects {
        supersample: 3,
        blur: Pixels(0.0),
        noise: 0.0,
        uneven_light: 0.0,
        jpeg_quality: None,
        gain: 1.0,
        seed: 0,
    };

    /// A typical webcam: slight blur, noise, a light fall-off and JPEG.
    pub const WEBCAM: Effects = Effects {
        supersample: 3,
        blur: Pixels(0.8),
        noise: 3.0,
        uneven_light: 0.25,
        jpeg_quality: Some(85),
        gain: 1.0,
        seed: 1,
    };
}

/// Renders synthetic tables, keeping what can be reused between frames of one camera.
#[derive(Default)]
pub struct Renderer {
    textures: HashMap<(String, u32), TagTexture>,
    rays: Option<RayMap>,
    ground: Option<Ground>,
}

/// The bare table as one camera sees it, kept between frames: a pixel no block can reach is
/// copied from it instead of traced again (the busy mat's detail costs most of a frame).
struct Ground {
    key: GroundKey,
    pixels: Vec<f32>,
}

/// What the bare table's picture depends on.
#[derive(Clone, Debug)]
struct GroundKey {
    camera: Camera,
    supersample: usize,
    table: calibration::TableSize,
    cloth: Rgb,
    scenery: super::scenery::Scenery,
    patches: Vec<super::world::Patch>,
    landscape: super::landscape::Landscape,
    sheets: Vec<super::print::Sheet>,
}

impl GroundKey {
    fn of(world: &SyntheticTable, camera: &Camera, supersample: usize) -> GroundKey {
        GroundKey {
            camera: *camera,
            supersample,
            table: world.table,
            cloth: world.cloth,
            scenery: world.scenery,
            patches: world.patches.clone(),
            landscape: world.landscape.clone(),
            sheets: world.sheets.clone(),
        }
    }

    /// Whether this is the key of `world` through `camera`: compared in place, so that a
    /// frame whose ground is unchanged copies nothing (a hill's relief alone is megabytes).
    fn is_of(&self, world: &SyntheticTable, camera: &Camera, supersample: usize) -> bool {
        self.camera == *camera
            && self.supersample == supersample
            && self.table == world.table
            && self.cloth == world.cloth
            && self.scenery == world.scenery
            && self.patches == world.patches
            && self.landscape == world.landscape
            && self.sheets == world.sheets
    }
}

/// Each pixel corner's ideal normalised image point, for one lens.
struct RayMap {
    intrinsics: Intrinsics,
    points: Vec<(f64, f64)>,
}

/// A block in the form the inner loop wants.
struct Solid<'a> {
    block: &'a Block,
    /// For a block off its footprint, the inverse of its pose at each of a pixel's rays'
    /// moments of the exposure (empty for a block lying still on its footprint): a ray is
    /// taken into the block's own resting frame, where the rest of the test is the same.
    inverse: Vec<Isometry3<f64>>,
    slab: Slab,
    tags: Vec<(&'a TagTexture, TagFrame)>,
}

/// A tag's frame on its block's top: centre, unit axes, the size of one cell, and its ink.
struct TagFrame {
    center: TablePoint,
    right: (f64, f64),
    up: (f64, f64),
    cell: f64,
    ink: Rgb,
}

const TILE: usize = 16;

impl Renderer {
    /// A renderer with empty caches.
    pub fn new() -> Renderer {
        Renderer::default()
    }

    /// Render the table as the camera sees it: a BGR image of the camera's size.
    pub fn render(
        &mut self,
        world: &SyntheticTable,
        camera: &Camera,
        effects: &Effects,
    ) -> Result<Mat, VisionError> {
        for tag in world.tags() {
            let key = (world.family.clone(), tag.id);
            if let std::collections::hash_map::Entry::Vacant(slot) = self.textures.entry(key) {
                slot.insert(TagTexture::new(&world.family, tag.id)?);
            }
        }
        self.prepare_rays(&camera.intrinsics);
        let size = camera.intrinsics.image_size;
        let (width, height) = (size.width as usize, size.height as usize);
        let supersample = effects.supersample.max(1) as usize;
        let landscape = landscape_index(world, camera, width, height);
        self.prepare_ground(world, camera, supersample, &landscape);
        let solids = self.solids(world, supersample * supersample);
        let tiles = tile_index(&solids, camera, width, height);
        let rays = self
            .rays
            .as_ref()
            .map(|r| r.points.as_slice())
            .unwrap_or_default();
        let scene = Scene {
            world,
            camera,
            solids: &solids,
            tiles: &tiles,
            landscape: &landscape,
            rays,
            ground: self.ground.as_ref().map(|g| g.pixels.as_slice()),
            width,
            height,
            supersample,
        };
        let mut pixels = vec![0f32; width * height * 3];
        render_rows(&scene, &mut pixels);
        finish(pixels, width, height, effects)
    }

    /// Render the bare table once for this camera and ground.
    fn prepare_ground(
        &mut self,
        world: &SyntheticTable,
        camera: &Camera,
        supersample: usize,
        landscape: &[Vec<u32>],
    ) {
        if (self.ground.as_ref()).is_some_and(|g| g.key.is_of(world, camera, supersample)) {
            return;
        }
        let key = GroundKey::of(world, camera, supersample);
        let size = camera.intrinsics.image_size;
        let (width, height) = (size.width as usize, size.height as usize);
        let tiles = vec![Vec::new(); width.div_ceil(TILE) * height.div_ceil(TILE)];
        let bare = Scene {
            world,
            camera,
            solids: &[],
            tiles: &tiles,
            landscape,
            rays: self
                .rays
                .as_ref()
                .map(|r| r.points.as_slice())
                .unwrap_or_default(),
            ground: None,
            width,
            height,
            supersample,
        };
        let mut pixels = vec![0f32; width * height * 3];
        render_rows(&bare, &mut pixels);
        self.ground = Some(Ground { key, pixels });
    }

    fn prepare_rays(&mut self, intrinsics: &Intrinsics) {
        if self
            .rays
            .as_ref()
            .is_some_and(|r| r.intrinsics == *intrinsics)
        {
            return;
        }
        let (w, h) = (
            intrinsics.image_size.width as usize,
            intrinsics.image_size.height as usize,
        );
        let mut points = Vec::with_capacity((w + 1) * (h + 1));
        for j in 0..=h {
            for i in 0..=w {
                let corner = calibration::PixelPoint::new(i as f64 - 0.5, j as f64 - 0.5);
                points.push(intrinsics.to_normalized(&corner));
            }
        }
        self.rays = Some(RayMap {
            intrinsics: *intrinsics,
            points,
        });
    }

    /// The blocks as the inner loop wants them, a moving block posed at each of `moments`
    /// moments of the exposure.
    fn solids<'a>(&'a self, world: &'a SyntheticTable, moments: usize) -> Vec<Solid<'a>> {
        world
            .blocks
            .iter()
            .map(|block| {
                let inverse = block
                    .motion
                    .map(|m| {
                        (0..moments)
                            .map(|k| m.at(moment(k, moments)).inverse())
                            .collect()
                    })
                    .unwrap_or_default();
                let tags = block
                    .tags
                    .iter()
                    .filter_map(|tag| {
                        let texture = self.textures.get(&(world.family.clone(), tag.id))?;
                        let up = rules::geometry::heading(tag.placement.facing);
                        let frame = TagFrame {
                            center: tag.placement.center,
                            right: (up.y, -up.x),
                            up: (up.x, up.y),
                            cell: tag.placement.size.0 / texture.inked_cells() as f64,
                            ink: world
                                .faded
                                .iter()
                                .find(|(id, _)| *id == tag.id)
                                .map_or(Rgb::INK, |(_, ink)| *ink),
                        };
                        Some((texture, frame))
                    })
                    .collect();
                Solid {
                    block,
                    inverse,
                    slab: block.slab(),
                    tags,
                }
            })
            .collect()
    }
}

/// Everything one row of rendering reads.
struct Scene<'a> {
    world: &'a SyntheticTable,
    camera: &'a Camera,
    solids: &'a [Solid<'a>],
    tiles: &'a [Vec<u32>],
    /// Which of the landscape's solids may be seen in each tile.
    landscape: &'a [Vec<u32>],
    rays: &'a [(f64, f64)],
    /// The bare table's picture, for pixels no block can reach.
    ground: Option<&'a [f32]>,
    width: usize,
    height: usize,
    supersample: usize,
}

/// Which blocks may be seen in each 16×16 tile.
fn tile_index(solids: &[Solid], camera: &Camera, width: usize, height: usize) -> Vec<Vec<u32>> {
    let mut tiles = vec![Vec::new(); width.div_ceil(TILE) * height.div_ceil(TILE)];
    for (index, solid) in solids.iter().enumerate() {
        let corners = solid.block.footprint.corners();
        let heights = [0.0, solid.block.height.0];
        let resting: Vec<TablePoint3> = corners
            .iter()
            .flat_map(|c| heights.map(|z| TablePoint3::new(c.x, c.y, z)))
            .collect();
        let poses: Vec<Isometry3<f64>> = if solid.inverse.is_empty() {
            vec![Isometry3::identity()]
        } else {
            solid.inverse.iter().map(Isometry3::inverse).collect()
        };
        let projected: Vec<Option<calibration::PixelPoint>> = poses
            .iter()
            .flat_map(|pose| resting.iter().map(move |p| camera.project(&(pose * p))))
            .collect();
        cover(&mut tiles, index, &projected, width, height);
    }
    tiles
}

/// Which of the landscape's solids may be seen in each 16×16 tile.
fn landscape_index(
    world: &SyntheticTable,
    camera: &Camera,
    width: usize,
    height: usize,
) -> Vec<Vec<u32>> {
    let mut tiles = vec![Vec::new(); width.div_ceil(TILE) * height.div_ceil(TILE)];
    for (index, corners) in world.landscape.bounds().enumerate() {
        let projected: Vec<_> = corners.iter().map(|c| camera.project(c)).collect();
        cover(&mut tiles, index, &projected, width, height);
    }
    tiles
}

/// Enter solid `index` in every tile the box round its projected corners touches (every tile
/// when a corner is behind the camera).
fn cover(
    tiles: &mut [Vec<u32>],
    index: usize,
    projected: &[Option<calibration::PixelPoint>],
    width: usize,
    height: usize,
) {
    let (tw, th) = (width.div_ceil(TILE), height.div_ceil(TILE));
    let (x0, y0, x1, y1) = if projected.iter().all(Option::is_some) {
        projected.iter().flatten().fold(
            (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
            |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
        )
    } else {
        (0.0, 0.0, width as f64, height as f64)
    };
    if x1 < -2.0 || y1 < -2.0 || x0 > width as f64 + 2.0 || y0 > height as f64 + 2.0 {
        return;
    }
    let clamp = |v: f64, n: usize| (v.max(0.0) as usize).min(n - 1);
    let (tx0, tx1) = (
        clamp((x0 - 2.0) / TILE as f64, tw),
        clamp((x1 + 2.0) / TILE as f64, tw),
    );
    let (ty0, ty1) = (
        clamp((y0 - 2.0) / TILE as f64, th),
        clamp((y1 + 2.0) / TILE as f64, th),
    );
    for ty in ty0..=ty1 {
        for tx in tx0..=tx1 {
            tiles[ty * tw + tx].push(index as u32);
        }
    }
}

/// Render every row, split across the machine's cores.
fn render_rows(scene: &Scene, pixels: &mut [f32]) {
    let rows_per_chunk = rows_per_thread(scene.height);
    std::thread::scope(|s| {
        for (chunk, out) in pixels
            .chunks_mut(rows_per_chunk * scene.width * 3)
            .enumerate()
        {
            s.spawn(move || {
                for (r, row) in out.chunks_mut(scene.width * 3).enumerate() {
                    render_row(scene, chunk * rows_per_chunk + r, row);
                }
            });
        }
    });
}

fn render_row(scene: &Scene, y: usize, out: &mut [f32]) {
    let n = scene.supersample;
    let weight = 1.0 / (n * n) as f32;
    let stride = scene.width + 1;
    let inverse = scene.camera.pose.rotation.inverse();
    let eye = scene.camera.pose.eye();
    let tw = scene.width.div_ceil(TILE);
    for x in 0..scene.width {
        let candidates = &scene.tiles[(y / TILE) * tw + x / TILE];
        if let (true, Some(ground)) = (candidates.is_empty(), scene.ground) {
            let at = (y * scene.width + x) * 3;
            out[x * 3..x * 3 + 3].copy_from_slice(&ground[at..at + 3]);
            continue;
        }
        let corner = |i: usize, j: usize| scene.rays[(y + j) * stride + x + i];
        let (p00, p10, p01, p11) = (corner(0, 0), corner(1, 0), corner(0, 1), corner(1, 1));
        let mut sum = [0f32; 3];
        for sj in 0..n {
            for si in 0..n {
                let (u, v) = sample_offset(si, sj, n);
                let lerp = |a: f64, b: f64, c: f64, d: f64| {
                    (a * (1.0 - u) + b * u) * (1.0 - v) + (c * (1.0 - u) + d * u) * v
                };
                let nx = lerp(p00.0, p10.0, p01.0, p11.0);
                let ny = lerp(p00.1, p10.1, p01.1, p11.1);
                let direction = inverse * Vector3::new(nx, ny, 1.0);
                let tile = (y / TILE) * tw + x / TILE;
                let colour = trace(scene, &eye, &direction, candidates, tile, sj * n + si);
                sum[0] += colour[0] * weight;
                sum[1] += colour[1] * weight;
                sum[2] += colour[2] * weight;
            }
        }
        // BGR, as OpenCV stores it.
        out[x * 3] = sum[2];
        out[x * 3 + 1] = sum[1];
        out[x * 3 + 2] = sum[0];
    }
}

/// Where in its pixel ray `(si, sj)` of `n × n` goes, as fractions of the pixel: one ray in
/// each of the `n × n` cells, and each on a row and a column of its own of the `n² × n²` grid
/// (n-rooks). A sensor integrates light over the whole pixel; rays on an `n × n` grid see an
/// edge along the pixel grid in only `n` steps of coverage, which moved the corners of tags
/// seen square-on (the calibration board's) by hundredths of a pixel, the same way every time:
/// a bias no camera has. On these rays the same edge has `n²` steps.
fn sample_offset(si: usize, sj: usize, n: usize) -> (f64, f64) {
    let n = n as f64;
    let (i, j) = (si as f64, sj as f64);
    ((i + (j + 0.5) / n) / n, (j + (i + 0.5) / n) / n)
}

/// The moment of the exposure ray `k` of a pixel's `count` sees, as a share of it: one ray
/// a moment, in the middle of its slice. With the n-rooks offsets each moment falls in a row
/// and a column of its own, so a moving edge's blur is sampled as evenly as a still one.
fn moment(k: usize, count: usize) -> f64 {
    (k as f64 + 0.5) / count.max(1) as f64
}

/// The colour ray `moment` of a pixel in `tile` sees, RGB.
fn trace(
    scene: &Scene,
    eye: &TablePoint3,
    d: &Vector3<f64>,
    candidates: &[u32],
    tile: usize,
    moment: usize,
) -> [f32; 3] {
    let landscape = &scene.world.landscape;
    let relief = landscape.relief.as_ref().and_then(|r| r.meet(eye, d));
    let mut nearest = match relief {
        Some(t) => t,
        None if d.z < 0.0 => -eye.z / d.z,
        None => f64::INFINITY,
    };
    let mut colour = None;
    for &index in &scene.landscape[tile] {
        if let Some((t, c, normal)) = landscape.hit(index as usize, eye, d)
            && t < nearest
        {
            nearest = t;
            colour = Some(rgb(c, super::landscape::shade(&normal)));
        }
    }
    for &index in candidates {
        let solid = &scene.solids[index as usize];
        // A block wins a tie with the cloth: a card of zero thickness lies on it.
        if let Some((t, c)) = hit_block(scene, solid, eye, d, moment)
            && (t < nearest || (colour.is_none() && t <= nearest))
        {
            nearest = t;
            colour = Some(c);
        }
    }
    if let Some(c) = colour {
        return c;
    }
    if !nearest.is_finite() {
        return rgb(Rgb::FLOOR, 0.6);
    }
    let p = TablePoint::new(eye.x + d.x * nearest, eye.y + d.y * nearest);
    let light = match (&landscape.relief, relief) {
        (Some(ground), Some(_)) => super::landscape::shade(&ground.normal(p.x, p.y)),
        _ => 1.0,
    };
    rgb(ground_colour(scene.world, &p), light)
}

fn ground_colour(world: &SyntheticTable, p: &TablePoint) -> Rgb {
    if !world.table.contains(p, rules::units::Inches::ZERO) {
        return Rgb::FLOOR;
    }
    if let Some(print) = world.sheets.iter().rev().find_map(|s| s.colour_at(p)) {
        return print;
    }
    world
        .patches
        .iter()
        .rev()
        .find(|patch| contains(&patch.polygon, p))
        .map_or_else(
            || world.scenery.ground(world.cloth, p),
            |patch| patch.colour,
        )
}

fn contains(polygon: &[TablePoint], p: &TablePoint) -> bool {
    let mut inside = false;
    let n = polygon.len();
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + n - 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
    }
    inside
}

fn rgb(c: Rgb, shade: f32) -> [f32; 3] {
    [
        f32::from(c.0) * shade,
        f32::from(c.1) * shade,
        f32::from(c.2) * shade,
    ]
}

/// Where a ray enters a block (slab test in the block's own frame) and the colour there.
fn hit_block(
    scene: &Scene,
    solid: &Solid,
    eye: &TablePoint3,
    d: &Vector3<f64>,
    moment: usize,
) -> Option<(f64, [f32; 3])> {
    // A block off its footprint: the ray in the block's resting frame. The pose is rigid, so
    // the ray's parameter, and so its distance, is the same in both frames.
    let (eye, d) = match solid.inverse.get(moment % solid.inverse.len().max(1)) {
        Some(inverse) => (&(inverse * eye), &(inverse * d)),
        None => (eye, d),
    };
    let (enter, top) = solid.slab.enter(eye, d)?;
    if !top {
        return Some((enter, rgb(solid.block.colour, 0.62)));
    }
    let p = TablePoint::new(eye.x + d.x * enter, eye.y + d.y * enter);
    Some((enter, top_colour(scene.world, solid, &p)))
}

fn top_colour(world: &SyntheticTable, solid: &Solid, p: &TablePoint) -> [f32; 3] {
    for (texture, frame) in &solid.tags {
        let (dx, dy) = (p.x - frame.center.x, p.y - frame.center.y);
        let half = texture.cells as f64 / 2.0;
        let u = (dx * frame.right.0 + dy * frame.right.1) / frame.cell + half;
        let v = half - (dx * frame.up.0 + dy * frame.up.1) / frame.cell;
        if (0.0..texture.cells as f64).contains(&u) && (0.0..texture.cells as f64).contains(&v) {
            let ink = texture.is_black(u.floor() as i64, v.floor() as i64);
            let colour = if ink { frame.ink } else { Rgb::PAPER };
            return glossy(world, p, rgb(colour, 1.0));
        }
    }
    if !solid.block.figures {
        return glossy(world, p, rgb(solid.block.colour, 1.0));
    }
    let top = world
        .scenery
        .stand_top(solid.block.colour, solid.slab.local(p));
    glossy(world, p, rgb(top, 1.0))
}

/// A block's top is glossy (paper, varnished figures; the cloth is not): a lamp's reflection on
/// it is added light, and what passes white clips.
fn glossy(world: &SyntheticTable, p: &TablePoint, colour: [f32; 3]) -> [f32; 3] {
    let glare = world.glare.iter().map(|g| g.at(p)).sum::<f64>() as f32;
    colour.map(|c| c + glare)
}

/// Rows of a picture `height` rows high each of the machine's cores (up to 8) takes.
fn rows_per_thread(height: usize) -> usize {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    height.div_ceil(threads).max(1)
}

/// The exposure's gain, the light's fall-off across the table and the sensor's noise, on
/// one row.
fn light_and_grain(
    row: &mut [f32],
    y: usize,
    width: usize,
    height: usize,
    effects: &Effects,
    noise: &mut Noise,
) {
    let (cx, cy) = (width as f64 * 0.3, height as f64 * 0.2);
    let reach = (width as f64).hypot(height as f64);
    for x in 0..width {
        let fall = effects.gain
            * (1.0 - effects.uneven_light * ((x as f64 - cx).hypot(y as f64 - cy) / reach));
        for value in &mut row[x * 3..x * 3 + 3] {
            let grain = if effects.noise > 0.0 {
                noise.gaussian() * effects.noise
            } else {
                0.0
            };
            *value = (f64::from(*value) * fall + grain) as f32;
        }
    }
}

/// Light fall-off, noise, 8-bit, blur and JPEG.
fn finish(
    mut pixels: Vec<f32>,
    width: usize,
    height: usize,
    effects: &Effects,
) -> Result<Mat, VisionError> {
    // Rows in parallel, each drawing its noise from where the one sequence would be at its
    // first pixel (the generator is counter-based): the same picture on any number of cores.
    let rows = rows_per_thread(height);
    std::thread::scope(|s| {
        for (chunk, out) in pixels.chunks_mut(rows * width * 3).enumerate() {
            s.spawn(move || {
                let first_row = chunk * rows;
                let mut noise = Noise::new(effects.seed);
                if effects.noise > 0.0 {
                    // Two uniform draws a Gaussian, one Gaussian a channel.
                    noise.skip(2 * (first_row * width * 3) as u64);
                }
                for (r, row) in out.chunks_mut(width * 3).enumerate() {
                    light_and_grain(row, first_row + r, width, height, effects, &mut noise);
                }
            });
        }
    });
    let bytes: Vec<u8> = pixels
        .iter()
        .map(|v| v.round().clamp(0.0, 255.0) as u8)
        .collect();
    let mut image =
        Mat::new_rows_cols_with_default(height as i32, width as i32, CV_8UC3, Scalar::all(0.0))?;
    image.data_bytes_mut()?.copy_from_slice(&bytes);
    if effects.blur.0 > 0.0 {
        let mut blurred = Mat::default();
        imgproc::gaussian_blur_def(&image, &mut blurred, Size::new(0, 0), effects.blur.0)?;
        image = blurred;
    }
    if let Some(quality) = effects.jpeg_quality {
        image = crate::image_io::decode_image(&crate::image_io::encode_jpeg(&image, quality)?)?;
    }
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::sample_offset;

    #[test]
    fn rays_cover_their_pixel_on_rows_and_columns_of_their_own() {
        for n in 1..=4 {
            let rays: Vec<(f64, f64)> = (0..n)
                .flat_map(|sj| (0..n).map(move |si| sample_offset(si, sj, n)))
                .collect();
            let k = (n * n) as f64;
            let fine = |x: f64| (x * k).floor() as usize;
            let coarse = |x: f64| (x * n as f64).floor() as usize;
            let mut columns: Vec<usize> = rays.iter().map(|r| fine(r.0)).collect();
            let mut rows: Vec<usize> = rays.iter().map(|r| fine(r.1)).collect();
            columns.sort_unstable();
            rows.sort_unstable();
            let every: Vec<usize> = (0..n * n).collect();
            assert_eq!(
                (&columns, &rows),
                (&every, &every),
                "{n}×{n}: one ray a row and a column"
            );
            let mut cells: Vec<(usize, usize)> =
                rays.iter().map(|r| (coarse(r.0), coarse(r.1))).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), n * n, "{n}×{n}: one ray a cell");
            let mean = rays
                .iter()
                .fold((0.0, 0.0), |m, r| (m.0 + r.0 / k, m.1 + r.1 / k));
            assert!((mean.0 - 0.5).abs() < 1e-12 && (mean.1 - 0.5).abs() < 1e-12);
        }
    }
}
