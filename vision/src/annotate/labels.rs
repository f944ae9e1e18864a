//! Where the labels of an annotated picture go.
//!
//! Each label is written beside its anchor (a unit's leader, a tag's corner, a measured line's
//! middle). Written at one fixed offset, the names of units standing close together overprinted
//! one another and neither could be read. So each label, in the order given (the most useful
//! first), takes the first spot around its anchor that covers no label placed before it and lies
//! wholly inside the picture: the eight spots touching the anchor first, then the same eight
//! pushed further out ring by ring (as many as the caller allows: a name is worth a long leader
//! line back to its anchor, a tag's id is not). A label with no free spot within reach is left
//! out rather than drawn over another.

use opencv::core::{Point, Rect, Size};

/// The gap between an anchor and its label, pixels.
const GAP: i32 = 4;
/// The clear space kept round every label, pixels, so that outlines never touch.
const MARGIN: i32 = 2;

/// The directions a label may lie in from its anchor, the usual one (up and right) first, then
/// the other diagonals, then straight right, left, up and down.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, 0),
    (-1, 0),
    (0, -1),
    (0, 1),
];

/// Where a label went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The label's box in the picture.
    pub area: Rect,
    /// Whether it was moved away from its anchor (then a leader line joins them).
    pub moved: bool,
}

/// The labels placed so far on one picture.
#[derive(Clone, Debug)]
pub struct LabelLayout {
    picture: Size,
    placed: Vec<Rect>,
}

impl LabelLayout {
    /// An empty layout for a picture of `picture` pixels.
    pub fn new(picture: Size) -> LabelLayout {
        LabelLayout {
            picture,
            placed: Vec::new(),
        }
    }

    /// Every label's box placed so far, in order.
    pub fn placed(&self) -> &[Rect] {
        &self.placed
    }

    /// Place a label of `size` near `anchor`, trying the spots touching it and `rings` rings
    /// beyond them; `None` when none of them is free.
    pub fn place(&mut self, anchor: Point, size: Size, rings: i32) -> Option<Placement> {
        let step = size.height + MARGIN;
        let found = (0..=rings).find_map(|ring| {
            let push = GAP + ring * step;
            DIRECTIONS
                .iter()
                .map(|&direction| spot(anchor, size, direction, push))
                .find(|area| self.is_free(area))
                .map(|area| Placement {
                    area,
                    moved: ring > 0,
                })
        })?;
        self.placed.push(found.area);
        Some(found)
    }

    fn is_free(&self, area: &Rect) -> bool {
        let inside = area.x >= 0
            && area.y >= 0
            && area.x + area.width <= self.picture.width
            && area.y + area.height <= self.picture.height;
        inside && self.placed.iter().all(|other| !near(area, other))
    }
}

/// The box of a label of `size` lying `push` pixels from `anchor` in `direction`.
fn spot(anchor: Point, size: Size, (dx, dy): (i32, i32), push: i32) -> Rect {
    let x = match dx {
        1 => anchor.x + push,
        -1 => anchor.x - push - size.width,
        _ => anchor.x - size.width / 2,
    };
    let y = match dy {
        1 => anchor.y + push,
        -1 => anchor.y - push - size.height,
        _ => anchor.y - size.height / 2,
    };
    Rect::new(x, y, size.width, size.height)
}

/// Whether two boxes overlap or come within [`MARGIN`] of each other.
fn near(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width + MARGIN
        && b.x < a.x + a.width + MARGIN
        && a.y < b.y + b.height + MARGIN
        && b.y < a.y + a.height + MARGIN
}

/// Whether two boxes share a pixel.
pub fn overlap(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/// The point of `area` nearest to `from`: where a leader line from the anchor ends.
pub fn nearest_point(area: &Rect, from: Point) -> Point {
    Point::new(
        from.x.clamp(area.x, area.x + area.width - 1),
        from.y.clamp(area.y, area.y + area.height - 1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PICTURE: Size = Size {
        width: 640,
        height: 360,
    };

    #[test]
    fn a_lone_label_sits_up_and_right_of_its_anchor() {
        let mut layout = LabelLayout::new(PICTURE);
        let placed = layout
            .place(Point::new(100, 100), Size::new(80, 16), 0)
            .expect("room");
        assert_eq!(placed.area, Rect::new(104, 80, 80, 16));
        assert!(!placed.moved);
    }

    #[test]
    fn labels_of_one_spot_never_overlap_and_stay_in_the_picture() {
        let mut layout = LabelLayout::new(PICTURE);
        let mut placed = 0;
        for i in 0..40 {
            // Forty labels crowded round a few points, some at the picture's edge.
            let anchor = Point::new([2, 320, 636][i % 3], [1, 180, 358][i % 3]);
            if layout
                .place(anchor, Size::new(70 + i as i32, 16), 6)
                .is_some()
            {
                placed += 1;
            }
        }
        let boxes = layout.placed();
        assert_eq!(boxes.len(), placed);
        assert!(placed >= 24, "only {placed} of 40 labels found room");
        for (i, a) in boxes.iter().enumerate() {
            assert!(
                a.x >= 0
                    && a.y >= 0
                    && a.x + a.width <= PICTURE.width
                    && a.y + a.height <= PICTURE.height,
                "{a:?} leaves the picture"
            );
            for b in &boxes[i + 1..] {
                assert!(!overlap(a, b), "{a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn a_label_that_fits_nowhere_is_left_out() {
        let mut layout = LabelLayout::new(Size::new(60, 40));
        assert_eq!(
            layout.place(Point::new(30, 20), Size::new(100, 16), 6),
            None
        );
        assert!(layout.placed().is_empty());
    }

    #[test]
    fn a_leader_line_ends_on_the_boxs_edge_nearest_the_anchor() {
        let area = Rect::new(50, 10, 40, 16);
        assert_eq!(nearest_point(&area, Point::new(20, 40)), Point::new(50, 25));
        assert_eq!(nearest_point(&area, Point::new(60, 0)), Point::new(60, 10));
    }
}
