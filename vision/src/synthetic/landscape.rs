//! Scenery that stands up from the cloth: hills that rise, trees over a wood's base, rocks on
//! rough ground, buildings with roofs, walls and hedges.
//!
//! Flat paint ([`super::Patch`]) says where a piece is but not how high it stands; a camera at
//! the side sees a tree's canopy a few inches beyond its base, a roof beyond its walls, and a
//! hill's flank lit or shaded. Terrain found from a picture has to cope with exactly that, so
//! the synthetic table draws it.
//!
//! Decisions:
//! - Three shapes only: the ground's height field ([`Relief`], from the hills' `rise` through
//!   [`rules::ground::Ground`], the same ground the camera half places stands on), balls
//!   (canopies, rocks) and convex prisms (walls, roofs, hedges): every piece of a club's table
//!   is a union of them, and each has an exact ray test.
//! - Light comes from one direction, up and to one side ([`LIGHT`]); a surface is shaded by
//!   how squarely it faces it, relative to the flat cloth, so a table with no landscape renders
//!   exactly as before.

use calibration::{TablePoint3, TableSize};
use nalgebra::Vector3;
use rules::geometry::{OrientedRect, TablePoint};
use rules::ground::Ground;
use rules::units::Inches;

use super::colour::Rgb;

/// Where the light comes from (unit length): high, from the table's near left.
const LIGHT: [f64; 3] = [-0.36, -0.30, 0.883];
/// The light a surface facing away from [`LIGHT`] still gets, as a share of what it would in
/// full light.
const AMBIENT: f64 = 0.45;

/// How much light a surface with this normal gets, relative to the flat cloth.
pub(super) fn shade(normal: &Vector3<f64>) -> f32 {
    let facing = normal.x * LIGHT[0] + normal.y * LIGHT[1] + normal.z * LIGHT[2];
    let lit = |f: f64| AMBIENT + (1.0 - AMBIENT) * f.max(0.0);
    (lit(facing) / lit(LIGHT[2])) as f32
}

/// A ball: a tree's canopy, a rock (centred below the cloth, it shows as a dome).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Its centre.
    pub centre: TablePoint3,
    /// Its radius, inches.
    pub radius: f64,
    /// Its colour in full light.
    pub colour: Rgb,
}

impl Ball {
    /// Where a ray first meets it, and the surface's normal there.
    pub(super) fn hit(&self, eye: &TablePoint3, d: &Vector3<f64>) -> Option<(f64, Vector3<f64>)> {
        let to = eye - self.centre;
        let a = d.norm_squared();
        let b = to.dot(d);
        let c = to.norm_squared() - self.radius * self.radius;
        let disc = b * b - a * c;
        if disc < 0.0 {
            return None;
        }
        let t = (-b - disc.sqrt()) / a;
        if t <= 0.0 {
            return None;
        }
        let at = eye + d * t;
        // Below the cloth the ball is buried.
        (at.z >= 0.0).then(|| (t, (at - self.centre) / self.radius))
    }

    /// The corners of a box round it, for culling.
    pub(super) fn bounds(&self) -> Vec<TablePoint3> {
        let r = self.radius;
        let c = self.centre;
        corners_of(
            c.x - r,
            c.y - r,
            (c.z - r).max(0.0),
            c.x + r,
            c.y + r,
            c.z + r,
        )
    }
}

/// A convex solid bounded by planes: a wall, a hedge, a building's walls, its roof.
#[derive(Clone, Debug, PartialEq)]
pub struct Prism {
    /// Each face's outward normal and offset: inside is `normal · p ≤ offset` for all.
    faces: Vec<(Vector3<f64>, f64)>,
    /// Its corners, for culling.
    corners: Vec<TablePoint3>,
    /// Its colour in full light.
    pub colour: Rgb,
}

impl Prism {
    /// A box on `footprint` from `bottom` to `top` above the cloth.
    pub fn upright(footprint: &OrientedRect, bottom: f64, top: f64, colour: Rgb) -> Prism {
        let ring = footprint.corners();
        let mut corners: Vec<TablePoint3> = ring
            .iter()
            .map(|c| TablePoint3::new(c.x, c.y, bottom))
            .collect();
        corners.extend(ring.iter().map(|c| TablePoint3::new(c.x, c.y, top)));
        let mut faces = sides(&ring, footprint.center());
        faces.push((Vector3::z(), top));
        faces.push((-Vector3::z(), -bottom));
        Prism {
            faces,
            corners,
            colour,
        }
    }

    /// A pitched roof over `footprint`: eaves at `eaves`, its ridge along the footprint's
    /// depth (forward) at `ridge`.
    pub fn roof(footprint: &OrientedRect, eaves: f64, ridge: f64, colour: Rgb) -> Prism {
        let ring = footprint.corners();
        let centre = footprint.center();
        let right = footprint.right();
        let half = footprint.width().0 / 2.0;
        let mut corners: Vec<TablePoint3> = ring
            .iter()
            .map(|c| TablePoint3::new(c.x, c.y, eaves))
            .collect();
        let forward = footprint.forward() * (footprint.depth().0 / 2.0);
        for end in [centre + forward, centre - forward] {
            corners.push(TablePoint3::new(end.x, end.y, ridge));
        }
        // Two sloping faces through the ridge, the two gable ends upright, the floor.
        let rise = ridge - eaves;
        let mut faces: Vec<(Vector3<f64>, f64)> = [1.0, -1.0]
            .iter()
            .map(|s| {
                let n = Vector3::new(s * right.x * rise, s * right.y * rise, half).normalize();
                let on_ridge = Vector3::new(centre.x, centre.y, ridge);
                (n, n.dot(&on_ridge))
            })
            .collect();
        let forward_unit = Vector3::new(footprint.forward().x, footprint.forward().y, 0.0);
        let depth = footprint.depth().0 / 2.0;
        let c = Vector3::new(centre.x, centre.y, 0.0);
        faces.push((forward_unit, forward_unit.dot(&c) + depth));
        faces.push((-forward_unit, -forward_unit.dot(&c) + depth));
        faces.push((-Vector3::z(), -eaves));
        Prism {
            faces,
            corners,
            colour,
        }
    }

    /// A straight run of wall or hedge from `a` to `b`, `width` thick and `height` high.
    pub fn run(a: TablePoint, b: TablePoint, width: f64, height: f64, colour: Rgb) -> Prism {
        let along = b - a;
        let centre = a + along / 2.0;
        // Its facing is square to the run, so its width lies along it.
        let facing = rules::units::Degrees(along.y.atan2(along.x).to_degrees() + 90.0);
        let footprint =
            OrientedRect::from_center(centre, facing, Inches(along.norm()), Inches(width));
        Prism::upright(&footprint, 0.0, height, colour)
    }

    /// Where a ray enters it, and the face's normal there.
    pub(super) fn hit(&self, eye: &TablePoint3, d: &Vector3<f64>) -> Option<(f64, Vector3<f64>)> {
        let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut normal = Vector3::z();
        for (n, offset) in &self.faces {
            let along = n.dot(d);
            let gap = offset - n.dot(&eye.coords);
            if along.abs() < 1e-15 {
                if gap < 0.0 {
                    return None;
                }
                continue;
            }
            let t = gap / along;
            if along < 0.0 {
                if t > enter {
                    enter = t;
                    normal = *n;
                }
            } else {
                exit = exit.min(t);
            }
        }
        (enter <= exit && enter > 0.0).then_some((enter, normal))
    }

    /// Its corners, for culling.
    pub(super) fn bounds(&self) -> Vec<TablePoint3> {
        self.corners.clone()
    }
}

/// The upright sides of a convex ring round `centre`, facing out.
fn sides(ring: &[TablePoint; 4], centre: TablePoint) -> Vec<(Vector3<f64>, f64)> {
    (0..4)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % 4]);
            let edge = b - a;
            let mut n = Vector3::new(edge.y, -edge.x, 0.0).normalize();
            let mid = Vector3::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0, 0.0);
            if n.dot(&(mid - Vector3::new(centre.x, centre.y, 0.0))) < 0.0 {
                n = -n;
            }
            (n, n.dot(&mid))
        })
        .collect()
}

fn corners_of(x0: f64, y0: f64, z0: f64, x1: f64, y1: f64, z1: f64) -> Vec<TablePoint3> {
    let mut corners = Vec::with_capacity(8);
    for z in [z0, z1] {
        for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
            corners.push(TablePoint3::new(x, y, z));
        }
    }
    corners
}

/// The ground's height over the table, sampled on a grid: hills as the camera half models them
/// ([`Ground`]), quick to ask along a ray.
#[derive(Clone, Debug, PartialEq)]
pub struct Relief {
    cell: f64,
    columns: usize,
    rows: usize,
    heights: Vec<f32>,
    /// Its highest point, inches.
    pub top: f64,
}

/// The relief's grid spacing, inches: finer than a 1080p pixel over a 6' table.
const RELIEF_CELL: f64 = 0.05;

impl Relief {
    /// The ground of these hills over a table; `None` when it is flat.
    pub fn of(ground: &Ground, table: TableSize) -> Option<Relief> {
        if ground.is_flat() {
            return None;
        }
        let columns = (table.width / RELIEF_CELL).ceil() as usize + 2;
        let rows = (table.depth / RELIEF_CELL).ceil() as usize + 2;
        let mut heights = vec![0f32; columns * rows];
        std::thread::scope(|s| {
            let chunk = rows.div_ceil(threads()) * columns;
            for (k, out) in heights.chunks_mut(chunk.max(1)).enumerate() {
                s.spawn(move || {
                    for (i, h) in out.iter_mut().enumerate() {
                        let at = k * chunk + i;
                        let p = TablePoint::new(
                            (at % columns) as f64 * RELIEF_CELL,
                            (at / columns) as f64 * RELIEF_CELL,
                        );
                        *h = ground.height_at(&p).0 as f32;
                    }
                });
            }
        });
        let top = heights.iter().copied().fold(0f32, f32::max) as f64;
        Some(Relief {
            cell: RELIEF_CELL,
            columns,
            rows,
            heights,
            top,
        })
    }

    /// The ground's height at `(x, y)`, inches (bilinear between the grid's samples).
    pub fn height(&self, x: f64, y: f64) -> f64 {
        let (gx, gy) = (x / self.cell, y / self.cell);
        if gx < 0.0 || gy < 0.0 {
            return 0.0;
        }
        let (i, j) = (gx.floor() as usize, gy.floor() as usize);
        if i + 1 >= self.columns || j + 1 >= self.rows {
            return 0.0;
        }
        let (u, v) = ((gx - i as f64) as f32, (gy - j as f64) as f32);
        let at = |i: usize, j: usize| self.heights[j * self.columns + i];
        let top = at(i, j) * (1.0 - u) + at(i + 1, j) * u;
        let bottom = at(i, j + 1) * (1.0 - u) + at(i + 1, j + 1) * u;
        f64::from(top * (1.0 - v) + bottom * v)
    }

    /// The ground's upward normal at `(x, y)`.
    pub fn normal(&self, x: f64, y: f64) -> Vector3<f64> {
        let e = self.cell;
        let dx = (self.height(x + e, y) - self.height(x - e, y)) / (2.0 * e);
        let dy = (self.height(x, y + e) - self.height(x, y - e)) / (2.0 * e);
        Vector3::new(-dx, -dy, 1.0).normalize()
    }

    /// Where a ray from above first meets the ground, or `None` when it meets only the cloth
    /// beyond every hill (then the flat cloth's own test holds).
    pub fn meet(&self, eye: &TablePoint3, d: &Vector3<f64>) -> Option<f64> {
        if d.z >= 0.0 || eye.z <= self.top {
            return None;
        }
        let (start, end) = ((eye.z - self.top) / -d.z, eye.z / -d.z);
        let horizontal = d.x.hypot(d.y) * (end - start);
        let steps = ((horizontal / (self.cell * 0.8)).ceil() as usize).max(1);
        let dt = (end - start) / steps as f64;
        let above = |t: f64| {
            let p = eye + d * t;
            p.z - self.height(p.x, p.y)
        };
        let mut previous = start;
        for k in 1..=steps {
            let t = start + dt * k as f64;
            if above(t) <= 0.0 {
                // Halve the step that crossed the ground.
                let (mut lo, mut hi) = (previous, t);
                for _ in 0..8 {
                    let mid = (lo + hi) / 2.0;
                    if above(mid) <= 0.0 {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(hi);
            }
            previous = t;
        }
        None
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// Everything on the table that stands up from the cloth.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Landscape {
    /// The hills' ground, when any hill rises.
    pub relief: Option<Relief>,
    /// Canopies and rocks.
    pub balls: Vec<Ball>,
    /// Walls, hedges, buildings and roofs.
    pub prisms: Vec<Prism>,
}

impl Landscape {
    /// Whether nothing stands up from the cloth.
    pub fn is_flat(&self) -> bool {
        self.relief.is_none() && self.balls.is_empty() && self.prisms.is_empty()
    }

    /// Each solid's corners (balls first, then prisms), for culling.
    pub(super) fn bounds(&self) -> impl Iterator<Item = Vec<TablePoint3>> + '_ {
        self.balls
            .iter()
            .map(Ball::bounds)
            .chain(self.prisms.iter().map(Prism::bounds))
    }

    /// Where a ray first meets solid `index` (as [`Landscape::bounds`] counts them), its colour
    /// in full light and the normal there.
    pub(super) fn hit(
        &self,
        index: usize,
        eye: &TablePoint3,
        d: &Vector3<f64>,
    ) -> Option<(f64, Rgb, Vector3<f64>)> {
        match self.balls.get(index) {
            Some(ball) => ball.hit(eye, d).map(|(t, n)| (t, ball.colour, n)),
            None => {
                let prism = self.prisms.get(index - self.balls.len())?;
                prism.hit(eye, d).map(|(t, n)| (t, prism.colour, n))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::units::Degrees;

    fn down_at(x: f64, y: f64) -> (TablePoint3, Vector3<f64>) {
        (TablePoint3::new(x, y, 50.0), Vector3::new(0.0, 0.0, -1.0))
    }

    #[test]
    fn a_box_is_met_on_its_top_and_missed_beside_it() {
        let footprint = OrientedRect::from_center(
            TablePoint::new(10.0, 10.0),
            Degrees(30.0),
            Inches(4.0),
            Inches(2.0),
        );
        let prism = Prism::upright(&footprint, 0.0, 3.0, Rgb(1, 2, 3));
        let (eye, d) = down_at(10.5, 10.2);
        let (t, n) = prism.hit(&eye, &d).expect("over its top");
        assert!((t - 47.0).abs() < 1e-9 && (n.z - 1.0).abs() < 1e-12);
        let (eye, d) = down_at(13.0, 13.0);
        assert!(prism.hit(&eye, &d).is_none());
    }

    #[test]
    fn a_roof_is_highest_on_its_ridge_and_lower_at_its_eaves() {
        let footprint = OrientedRect::from_center(
            TablePoint::new(0.0, 0.0),
            Degrees(90.0),
            Inches(4.0),
            Inches(6.0),
        );
        let roof = Prism::roof(&footprint, 2.0, 3.0, Rgb(1, 2, 3));
        let height_at = |x: f64| {
            let (eye, d) = down_at(x, 0.5);
            roof.hit(&eye, &d).map(|(t, _)| 50.0 - t)
        };
        let ridge = height_at(0.0).expect("on the ridge");
        let eave = height_at(1.9).expect("near an eave");
        assert!((ridge - 3.0).abs() < 1e-9, "ridge at {ridge}");
        assert!(eave < 2.1 && eave > 2.0, "eave at {eave}");
        assert!(height_at(2.1).is_none());
    }

    #[test]
    fn a_buried_ball_shows_only_its_dome() {
        let rock = Ball {
            centre: TablePoint3::new(0.0, 0.0, -0.2),
            radius: 0.5,
            colour: Rgb(1, 2, 3),
        };
        let (eye, d) = down_at(0.0, 0.0);
        let (t, _) = rock.hit(&eye, &d).expect("its top");
        assert!((50.0 - t - 0.3).abs() < 1e-9);
        let (eye, d) = down_at(0.47, 0.0);
        assert!(rock.hit(&eye, &d).is_none(), "below the cloth it is buried");
    }

    #[test]
    fn a_ray_meets_a_hill_where_its_ground_is() {
        let docs: Vec<rules::scene::TerrainDoc> = serde_json::from_str(
            r#"[{"id":"h","kind":"hill","polygon":[[10,10],[30,10],[30,30],[10,30]],"rise":2.0}]"#,
        )
        .expect("a hill");
        let table = TableSize {
            width: 40.0,
            depth: 40.0,
        };
        let relief = Relief::of(&Ground::of_docs(&docs), table).expect("a hill rises");
        assert!((relief.top - 2.0).abs() < 1e-3);
        let eye = TablePoint3::new(0.0, 20.0, 30.0);
        let aim = TablePoint3::new(20.0, 20.0, 2.0);
        let d = aim - eye;
        let t = relief.meet(&eye, &d).expect("the hill's top");
        assert!((t - 1.0).abs() < 0.01, "met at {t}");
        let flat = TablePoint3::new(38.0, 38.0, 0.0) - eye;
        let t = relief.meet(&eye, &flat);
        assert!(t.is_none_or(|t| (t - 1.0).abs() < 0.01));
    }
}
