//! Counters on the map as players know them, drawn by the symbology every output shares
//! (`bataille_render::symbology::counter` and `leader`, tessellated once per look): a square in
//! the corps colour with a NATO-style symbol, CP-morale-MP below, a wedge on the edge its front
//! faces; stacks fanned with a count badge beyond three; line leaders round, commanders in chief
//! as stars. What each counter
//! looks like is computed once per scenario change ([`CounterCache`]); a frame only draws the
//! stacks in view, with less detail when they are small on screen.
//! Longer than 600 lines: the counter cache, stack layout, hit-testing and the shapes of every
//! counter kind are one drawing pipeline.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use bataille_render::symbology::{
    self, CounterFace, CounterLook, CounterValues, Drawing, Leader, Looks,
};
use bataille_render::text::{Anchor, Face, TextStyle};
use bataille_schema::scenario::{CounterLayout, CounterValue, Symbol};
use bataille_schema::{Grid, HexIndex, Scenario};
use egui::epaint::Mesh;
use egui::{Color32, Pos2, Rect, Shape, Stroke, pos2, vec2};

use crate::map::tessellate::{Place, PlacedText, append, colour};
use crate::map::view::{MapView, colour32};
use crate::model::scenario_edit::CounterAt;

/// A counter's side, as a share of the hex's circumradius.
pub const COUNTER_SIDE: f32 = 1.1;
/// At most this many counters of a stack are drawn (render's, which the PNG renderer and the
/// exports use too); a badge gives the count of any stack of two or more.
pub const STACK_SHOWN: usize = bataille_render::symbology::STACK_SHOWN;

const INK: Color32 = Color32::from_rgb(20, 20, 20);
const NO_CORPS: Color32 = Color32::from_rgb(176, 176, 176);
pub const SELECTED: Color32 = Color32::from_rgb(255, 200, 0);

/// How one unit counter looks on the editor's map.
#[derive(Debug, Clone)]
pub struct UnitLook {
    pub at: CounterAt,
    /// Its colour, symbol, values and facing, as every output draws them (render's
    /// [`Looks::unit`]).
    pub look: CounterLook,
    /// Its army's colour (the army's first corps'), for a stack's badge.
    pub army_colour: Color32,
    /// The values the scenario's counter layout prints, in order (`rules.counters.values`:
    /// `CP-morale-MP` in Vae Victis, `7-4` in Napoleon at Waterloo).
    pub shown: Arc<[CounterValue]>,
}

impl UnitLook {
    /// The counter's colour.
    pub fn colour(&self) -> Color32 {
        let [r, g, b] = self.look.colour;
        Color32::from_rgb(r, g, b)
    }
}

/// How a leader marker looks.
#[derive(Debug, Clone)]
pub struct LeaderLook {
    pub at: CounterAt,
    pub colour: Color32,
    /// Its army's colour (the army's first corps'), for a stack's badge.
    pub army_colour: Color32,
    pub commander: bool,
    pub name: String,
}

/// The counters standing on one hex at set-up, bottom first.
#[derive(Debug, Clone, Default)]
pub struct Stack {
    pub units: Vec<UnitLook>,
    pub leaders: Vec<LeaderLook>,
}

/// The counters by hex, rebuilt when the scenario changes.
#[derive(Default)]
pub struct CounterCache {
    key: Option<(u64, Grid)>,
    pub by_hex: BTreeMap<HexIndex, Stack>,
}

pub use crate::model::oob_ops::rotate_facing;

impl CounterCache {
    /// Rebuilds the looks when the scenario's revision or the grid changed.
    pub fn refresh(&mut self, revision: u64, scenario: Option<&Scenario>, grid: &Grid) {
        if self
            .key
            .as_ref()
            .is_some_and(|(r, g)| *r == revision && g == grid)
        {
            return;
        }
        self.key = Some((revision, grid.clone()));
        self.by_hex.clear();
        let Some(s) = scenario else {
            return;
        };
        let shown = shown_values(&s.rules.counters);
        let looks = Looks::new(s, grid.orientation);
        let colour = |[r, g, b]: [u8; 3]| Color32::from_rgb(r, g, b);
        for (a, army) in s.armies.iter().enumerate() {
            let army_colour = army.corps.first().map_or_else(
                || colour32(&crate::model::defaults::corps_colour(a, 0), NO_CORPS),
                |c| colour32(&c.colour, NO_CORPS),
            );
            for (u, unit) in army.units.iter().enumerate() {
                let Some(hex) = unit.placement.hex().and_then(|h| grid.lookup(h)) else {
                    continue;
                };
                self.by_hex.entry(hex).or_default().units.push(UnitLook {
                    at: CounterAt::Unit(a, u),
                    look: looks.unit(army, unit),
                    army_colour,
                    shown: shown.clone(),
                });
            }
            for (c, corps) in army.corps.iter().enumerate() {
                if let Some(leader) = &corps.leader
                    && let Some(hex) = leader.placement.hex().and_then(|h| grid.lookup(h))
                {
                    self.by_hex
                        .entry(hex)
                        .or_default()
                        .leaders
                        .push(LeaderLook {
                            at: CounterAt::Leader(a, c),
                            colour: colour(looks.leader(corps)),
                            army_colour,
                            commander: false,
                            name: leader.name.clone(),
                        });
                }
            }
            for (k, chief) in army.commanders.iter().enumerate() {
                if let Some(hex) = chief.placement.hex().and_then(|h| grid.lookup(h)) {
                    self.by_hex
                        .entry(hex)
                        .or_default()
                        .leaders
                        .push(LeaderLook {
                            at: CounterAt::Commander(a, k),
                            colour: colour(looks.commander(army, chief)),
                            army_colour,
                            commander: true,
                            name: chief.name.clone(),
                        });
                }
            }
        }
    }

    /// The hex a counter stands on.
    pub fn hex_of(&self, at: CounterAt) -> Option<HexIndex> {
        self.by_hex.iter().find_map(|(hex, stack)| {
            (stack.units.iter().any(|u| u.at == at) || stack.leaders.iter().any(|l| l.at == at))
                .then_some(*hex)
        })
    }

    /// How many counters stand on a hex (units, leaders).
    pub fn count_at(&self, hex: HexIndex) -> (usize, usize) {
        self.by_hex
            .get(&hex)
            .map_or((0, 0), |s| (s.units.len(), s.leaders.len()))
    }
}

/// Where a stack's pieces are on screen.
pub struct StackLayout {
    /// One square per unit drawn, bottom first.
    pub units: Vec<Rect>,
    /// Centre and radius of each leader marker.
    pub leaders: Vec<(Pos2, f32)>,
}

/// Lays out a stack around a hex centre on screen, for a counter side of `side_px`.
pub fn layout_stack(centre: Pos2, stack: &Stack, side_px: f32) -> StackLayout {
    let shown = stack.units.len().min(STACK_SHOWN);
    // The stack's middle counter sits on the hex centre; each next one up and left.
    let step = (0.1 * side_px).max(1.0);
    let lift = step * (shown.saturating_sub(1)) as f32 / 2.0;
    let units = (0..shown)
        .map(|k| {
            let offset = step * k as f32 - lift;
            Rect::from_center_size(centre - vec2(offset, offset), vec2(side_px, side_px))
        })
        .collect();
    let has_units = shown > 0;
    let leaders = (0..stack.leaders.len())
        .map(|k| {
            let r = 0.2 * side_px;
            let shift = 0.3 * side_px * k as f32;
            let pos = if has_units {
                centre + vec2(0.46 * side_px + shift, -0.46 * side_px + shift)
            } else {
                centre + vec2(shift, shift)
            };
            (pos, r)
        })
        .collect();
    StackLayout { units, leaders }
}

/// What to highlight while drawing.
#[derive(Default)]
pub struct Highlights {
    pub selected: Option<CounterAt>,
    pub hovered: Option<CounterAt>,
    /// Counters in command of the selected leader (green) and out of it (red).
    pub in_command: Vec<CounterAt>,
    pub out_of_command: Vec<CounterAt>,
    /// A counter being dragged: drawn faded where it stands.
    pub dragged: Option<CounterAt>,
}

/// The counter's side on screen at a zoom.
pub fn side_px(view: &MapView) -> f32 {
    COUNTER_SIDE * view.zoom
}

/// The radius of a stack's count badge for a counter side of `side_px`: never too small to
/// hold its number.
pub fn badge_radius(side_px: f32) -> f32 {
    (0.17 * side_px).max(7.0)
}

/// What a stack's badge says: how many counters stand there, and the colours of the armies
/// they belong to (two or more: an enemy unit is never hidden under a friendly one).
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    pub count: usize,
    pub armies: Vec<Color32>,
}

/// The badge of a stack of two or more counters (units and leaders alike), or of a stack whose
/// counters belong to two armies.
pub fn badge(stack: &Stack) -> Option<Badge> {
    let count = stack.units.len() + stack.leaders.len();
    let mut armies: Vec<Color32> = Vec::new();
    let colours = stack.units.iter().map(|u| (u.at.army(), u.army_colour));
    let colours = colours.chain(stack.leaders.iter().map(|l| (l.at.army(), l.army_colour)));
    let mut seen = Vec::new();
    for (army, colour) in colours {
        if !seen.contains(&army) {
            seen.push(army);
            armies.push(colour);
        }
    }
    (count >= 2).then_some(Badge { count, armies })
}

/// Draws every stack in view. Returns how many counters were drawn.
pub fn paint(
    painter: &egui::Painter,
    view: &MapView,
    rect: Rect,
    grid: &Grid,
    cache: &CounterCache,
    highlights: &Highlights,
    scenario: Option<&Scenario>,
) -> usize {
    let side = side_px(view);
    let visible = view.visible_grid_rect(rect).expand(1.5);
    let mut shapes: Vec<Shape> = Vec::new();
    // Counters under 5 points across are plain squares: one mesh for all of them, under the
    // rest (egui tessellates a mesh by copying it, a shape per counter costs far more).
    let tiny = side < 5.0;
    let mut squares = Mesh::default();
    let mut drawn = 0;
    for (hex, stack) in &cache.by_hex {
        let [x, y] = grid.centre(*hex);
        if !visible.contains(pos2(x, y)) {
            continue;
        }
        let centre = view.to_screen(rect, pos2(x, y));
        let layout = layout_stack(centre, stack, side);
        for (look, square) in stack.units.iter().zip(&layout.units) {
            let faded = highlights.dragged == Some(look.at);
            if tiny {
                squares.add_colored_rect(*square, with_alpha(look.colour(), faded));
            } else {
                unit_shapes(&mut shapes, look, *square, faded);
            }
            let mark = |c: Color32, w: f32| {
                Shape::rect_stroke(
                    square.expand(w / 2.0 + 1.0),
                    2.0,
                    Stroke::new(w, c),
                    egui::StrokeKind::Outside,
                )
            };
            if highlights.selected == Some(look.at) {
                shapes.push(mark(SELECTED, 3.0));
            } else if highlights.hovered == Some(look.at) {
                shapes.push(mark(Color32::WHITE, 2.0));
            }
            if highlights.in_command.contains(&look.at) {
                shapes.push(mark(Color32::from_rgb(40, 190, 70), 2.5));
            } else if highlights.out_of_command.contains(&look.at) {
                shapes.push(mark(Color32::from_rgb(230, 40, 40), 2.5));
            }
            drawn += 1;
        }
        if let Some(badge) = badge(stack)
            && let Some(at) = layout
                .units
                .last()
                .map(|top| top.left_top())
                .or_else(|| layout.leaders.first().map(|(p, r)| *p - vec2(*r, *r)))
        {
            let r = badge_radius(side);
            // A mixed stack: a ring of each army's colour around the count, a half each.
            if let [first, second, ..] = badge.armies[..] {
                let ring = r + 3.0;
                shapes.push(Shape::circle_filled(at, ring, first));
                let half: Vec<Pos2> = (0..=16)
                    .map(|k| {
                        let angle = std::f32::consts::PI * (k as f32 / 16.0);
                        at + ring * vec2(angle.cos(), angle.sin())
                    })
                    .collect();
                shapes.push(Shape::convex_polygon(half, second, Stroke::NONE));
            }
            shapes.push(Shape::circle_filled(at, r, INK));
            shapes.push(Shape::circle_stroke(
                at,
                r,
                Stroke::new(1.0, Color32::WHITE),
            ));
            // The count at every zoom: zoomed out is when a stack is hardest to see.
            shapes.push(text_shape(
                painter,
                at,
                &badge.count.to_string(),
                (r * 1.2).max(8.0),
                Color32::WHITE,
            ));
        }
        for (look, (pos, r)) in stack.leaders.iter().zip(&layout.leaders) {
            leader_shapes(&mut shapes, painter, look, *pos, side);
            if highlights.selected == Some(look.at) {
                shapes.push(Shape::circle_stroke(
                    *pos,
                    r * 1.5,
                    Stroke::new(3.0, SELECTED),
                ));
            } else if highlights.hovered == Some(look.at) {
                shapes.push(Shape::circle_stroke(
                    *pos,
                    r * 1.5,
                    Stroke::new(2.0, Color32::WHITE),
                ));
            }
            if highlights.in_command.contains(&look.at) {
                shapes.push(Shape::circle_stroke(
                    *pos,
                    r * 1.3,
                    Stroke::new(2.5, Color32::from_rgb(40, 190, 70)),
                ));
            } else if highlights.out_of_command.contains(&look.at) {
                shapes.push(Shape::circle_stroke(
                    *pos,
                    r * 1.3,
                    Stroke::new(2.5, Color32::from_rgb(230, 40, 40)),
                ));
            }
            drawn += 1;
        }
        // Texts last, so that a counter above never hides the values of the one it covers
        // only partly: values of the top counter only.
        if side >= 22.0
            && let (Some(look), Some(square)) = (
                stack.units.get(layout.units.len().saturating_sub(1)),
                layout.units.last(),
            )
        {
            text_shapes(
                &mut shapes,
                painter,
                &unit_symbol(look),
                square.center(),
                side,
            );
        }
        // Zoomed in far enough, the top counter's name above it, as printed.
        if side >= 56.0
            && let (Some(look), Some(square), Some(s)) = (
                stack.units.get(layout.units.len().saturating_sub(1)),
                layout.units.last(),
                scenario,
            )
            && let CounterAt::Unit(a, u) = look.at
            && let Some(unit) = s.armies.get(a).and_then(|army| army.units.get(u))
        {
            let galley = painter.layout_no_wrap(
                unit.name.to_string(),
                crate::map::text::font_id(
                    Face::Regular,
                    (0.2 * side).min(16.0),
                    crate::map::text::installed(painter.ctx()),
                ),
                INK,
            );
            let at = square.center_top() - vec2(galley.size().x / 2.0, galley.size().y + 2.0);
            let plate = Rect::from_min_size(at, galley.size()).expand(1.5);
            shapes.push(Shape::rect_filled(
                plate,
                2.0,
                Color32::from_rgba_unmultiplied(255, 252, 235, 210),
            ));
            shapes.push(Shape::galley(at, galley, INK));
        }
    }
    if !squares.is_empty() {
        painter.add(Shape::mesh(squares));
    }
    painter.extend(shapes);
    drawn
}

/// The values line the symbology prints on a counter (`3-2-4`; a battery's `+2 · 3`, Denain
/// 10.3), for lists beside the map.
pub fn values_text(values: CounterValues, layout: &CounterLayout) -> String {
    values
        .text_in(layout, layout.back, CounterFace::Front)
        .unwrap_or_else(|| "–-–-–".to_owned())
}

/// The values a layout prints, shared by the looks of one scenario.
pub fn shown_values(layout: &CounterLayout) -> Arc<[CounterValue]> {
    layout.values.as_slice().into()
}

/// Text centred at `at` in the symbology's bold face (a stack's count).
fn text_shape(painter: &egui::Painter, at: Pos2, text: &str, size: f32, colour: Color32) -> Shape {
    let style = TextStyle {
        face: Face::Bold,
        size_px: size,
        colour: colour.to_array(),
        halo: None,
    };
    let mut shapes = Vec::new();
    crate::map::text::text_shapes(
        &mut shapes,
        painter,
        text,
        &style,
        at,
        Anchor::CENTRE,
        size.clamp(6.0, 40.0),
        crate::map::text::installed(painter.ctx()),
    );
    // One galley (no halo): the text shape itself.
    if shapes.len() == 1 {
        shapes.pop().unwrap_or(Shape::Noop)
    } else {
        Shape::Vec(shapes)
    }
}

fn with_alpha(c: Color32, faded: bool) -> Color32 {
    if faded { c.gamma_multiply(0.35) } else { c }
}

/// The side, in the symbology's units, counters are tessellated at (then scaled to the zoom).
const REFERENCE_SIDE: f32 = 100.0;

/// A counter or leader marker as the symbology draws it, tessellated once at
/// [`REFERENCE_SIDE`] around the origin.
pub struct Symbol2d {
    pub mesh: Mesh,
    pub texts: Vec<PlacedText>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum LookKey {
    Unit(
        [u8; 3],
        std::mem::Discriminant<Symbol>,
        CounterValues,
        Arc<[CounterValue]>,
        Option<u32>,
    ),
    Leader([u8; 4], bool, String),
}

/// The tessellated looks, shared by every counter that looks the same (a few hundred in a big
/// battle: corps colour, kind, values and facing).
fn cached(key: LookKey, draw: impl FnOnce() -> Drawing) -> Arc<Symbol2d> {
    static LOOKS: OnceLock<Mutex<HashMap<LookKey, Arc<Symbol2d>>>> = OnceLock::new();
    let looks = LOOKS.get_or_init(Mutex::default);
    let mut looks = match looks.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(found) = looks.get(&key) {
        return found.clone();
    }
    if looks.len() > 8192 {
        looks.clear();
    }
    let mut mesh = Mesh::default();
    let texts = append(&mut mesh, &draw(), Place::IDENTITY);
    let look = Arc::new(Symbol2d { mesh, texts });
    looks.insert(key, look.clone());
    look
}

/// The symbology's counter for a look (`bataille_render::symbology::counter`: what `bataille
/// render`, the print-and-play kit and the VASSAL module draw).
pub fn unit_symbol(look: &UnitLook) -> Arc<Symbol2d> {
    let counter = &look.look;
    let key = LookKey::Unit(
        counter.colour,
        std::mem::discriminant(&counter.symbol),
        counter.values,
        look.shown.clone(),
        counter.facing.map(f32::to_bits),
    );
    cached(key, || {
        let layout = CounterLayout {
            values: look.shown.to_vec(),
            ..CounterLayout::default()
        };
        // The map shows fronts: the back does not change the drawing.
        symbology::counter(counter, &layout, REFERENCE_SIDE, CounterFace::Front)
    })
}

/// The symbology's leader marker for a look, for a counter of [`REFERENCE_SIDE`].
pub fn leader_symbol(look: &LeaderLook) -> Arc<Symbol2d> {
    let key = LookKey::Leader(look.colour.to_array(), look.commander, look.name.clone());
    cached(key, || {
        symbology::leader(
            &Leader {
                name: &look.name,
                colour: [look.colour.r(), look.colour.g(), look.colour.b()],
                commander: look.commander,
            },
            [0.0, 0.0],
            REFERENCE_SIDE,
        )
    })
}

/// A copy of a symbol's mesh scaled to a counter side of `side` and centred at `centre`.
fn placed_mesh(symbol: &Symbol2d, centre: Pos2, side: f32, faded: bool) -> Mesh {
    let k = side / REFERENCE_SIDE;
    let mut mesh = symbol.mesh.clone();
    for v in &mut mesh.vertices {
        v.pos = pos2(centre.x + v.pos.x * k, centre.y + v.pos.y * k);
        v.color = with_alpha(v.color, faded);
    }
    mesh
}

/// A symbol's texts (values, a leader's initial) at a counter side of `side` around `centre`.
fn text_shapes(
    shapes: &mut Vec<Shape>,
    painter: &egui::Painter,
    symbol: &Symbol2d,
    centre: Pos2,
    side: f32,
) {
    let k = side / REFERENCE_SIDE;
    let installed = crate::map::text::installed(painter.ctx());
    for text in &symbol.texts {
        crate::map::text::text_shapes(
            shapes,
            painter,
            &text.text,
            &text.style,
            centre + text.pos.to_vec2() * k,
            text.anchor,
            text.size * k,
            installed,
        );
    }
}

/// The shapes of one unit counter in `square`: the symbology's counter (a plain square in the
/// corps colour when it is under 5 points across). Its values are drawn by [`paint`], on top.
pub fn unit_shapes(shapes: &mut Vec<Shape>, look: &UnitLook, square: Rect, faded: bool) {
    let s = square.width();
    if s < 5.0 {
        shapes.push(Shape::rect_filled(
            square,
            0.0,
            with_alpha(look.colour(), faded),
        ));
        return;
    }
    let symbol = unit_symbol(look);
    shapes.push(Shape::mesh(placed_mesh(&symbol, square.center(), s, faded)));
}

fn leader_shapes(
    shapes: &mut Vec<Shape>,
    painter: &egui::Painter,
    look: &LeaderLook,
    pos: Pos2,
    side: f32,
) {
    if side < 12.0 {
        // A dot in the corps colour (a commander's on gold) when the marker is a few points.
        if look.commander {
            shapes.push(Shape::circle_filled(
                pos,
                0.3 * side,
                colour([0xe8, 0xc3, 0x3a, 0xff]),
            ));
        }
        shapes.push(Shape::circle_filled(pos, 0.2 * side, look.colour));
        return;
    }
    let symbol = leader_symbol(look);
    shapes.push(Shape::mesh(placed_mesh(&symbol, pos, side, false)));
    if side >= 26.0 {
        text_shapes(shapes, painter, &symbol, pos, side);
    }
}

/// A counter drawn alone (dragged under the pointer).
pub fn paint_ghost(
    painter: &egui::Painter,
    centre: Pos2,
    side: f32,
    unit: Option<&UnitLook>,
    leader: Option<&LeaderLook>,
) {
    let mut shapes = Vec::new();
    if let Some(look) = unit {
        let square = Rect::from_center_size(centre, vec2(side, side));
        unit_shapes(&mut shapes, look, square, false);
    } else if let Some(look) = leader {
        leader_shapes(&mut shapes, painter, look, centre, side.max(20.0));
    }
    painter.extend(shapes);
}

/// The counter under a screen point: leaders first (drawn on top), then the stack's units from
/// the top down.
pub fn hit(
    view: &MapView,
    rect: Rect,
    grid: &Grid,
    cache: &CounterCache,
    pointer: Pos2,
) -> Option<(HexIndex, CounterAt)> {
    let side = side_px(view);
    let g = view.to_grid(rect, pointer);
    let under = grid.hex_at([g.x, g.y]);
    // The stack of the hex under the pointer, and of its neighbours (fanned counters and
    // leader markers reach over the hex's edge).
    let mut candidates: Vec<HexIndex> = Vec::new();
    if let Some(hex) = under {
        candidates.push(hex);
        candidates.extend(grid.neighbours(hex).map(|(_, n)| n));
    }
    for hex in candidates {
        let Some(stack) = cache.by_hex.get(&hex) else {
            continue;
        };
        let [x, y] = grid.centre(hex);
        let layout = layout_stack(view.to_screen(rect, pos2(x, y)), stack, side);
        for (look, (pos, r)) in stack.leaders.iter().zip(&layout.leaders).rev() {
            if pointer.distance(*pos) <= r * 1.3 {
                return Some((hex, look.at));
            }
        }
        for (look, square) in stack.units.iter().zip(&layout.units).rev() {
            if square.contains(pointer) {
                return Some((hex, look.at));
            }
        }
    }
    None
}

/// The whole stack's counters on a hex, top first (for cycling through a stack by clicks).
pub fn stack_order(cache: &CounterCache, hex: HexIndex) -> Vec<CounterAt> {
    let Some(stack) = cache.by_hex.get(&hex) else {
        return Vec::new();
    };
    let mut order: Vec<CounterAt> = stack.leaders.iter().rev().map(|l| l.at).collect();
    order.extend(stack.units.iter().rev().map(|u| u.at));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use bataille_schema::Side;
    use bataille_schema::geometry::facing_bearing;
    use bataille_schema::map::Orientation;

    #[test]
    fn facings_point_at_the_vertex_clockwise_of_the_side() {
        assert_eq!(facing_bearing(Orientation::Flat, Side::NE), 90.0);
        assert_eq!(facing_bearing(Orientation::Flat, Side::SW), 270.0);
        assert_eq!(facing_bearing(Orientation::Flat, Side::N), 30.0);
        assert_eq!(facing_bearing(Orientation::Pointy, Side::E), 120.0);
        assert_eq!(facing_bearing(Orientation::Flat, Side::E), 90.0);
    }

    #[test]
    fn rotation_walks_the_six_sides() {
        let mut side = rotate_facing(Orientation::Flat, None, true);
        assert_eq!(side, Side::N);
        for _ in 0..6 {
            side = rotate_facing(Orientation::Flat, Some(side), true);
        }
        assert_eq!(side, Side::N);
        assert_eq!(
            rotate_facing(Orientation::Flat, Some(Side::N), false),
            Side::NW
        );
        assert_eq!(
            rotate_facing(Orientation::Flat, Some(Side::E), true),
            Side::SE
        );
    }
}
