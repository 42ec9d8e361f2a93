//! The shade of a line told along its chain ([`super::pool_alike`]); the typical fit around a
//! hexside ([`super::local_quantiles`]).

use std::collections::HashMap;

use super::{InkModel, Scored, local_quantiles, pool_alike};

/// Scores of one hexside: plain, the camp line, the lines of Marchiennes (lower is better);
/// every two hypotheses differ by 100.
fn scored(camp: f32, marchiennes: f32) -> Scored {
    Scored {
        score: vec![0.0, camp, marchiennes],
        differ: vec![0.0, 100.0, 100.0, 100.0, 0.0, 100.0, 100.0, 100.0, 0.0],
    }
}

/// Hexside 0 between hexside 1 (at its first end) and hexside 2 (at its second), decided as
/// `shades` (1 the camp line, 2 Marchiennes); which shade pooling gives hexside 0.
fn shade_of_middle(own: Scored, neighbours: [(Scored, usize); 2]) -> usize {
    let ends = vec![[(0, 0), (1, 0)], [(0, 0), (9, 9)], [(1, 0), (8, 8)]];
    let at_corner: HashMap<(i64, i64), Vec<usize>> = HashMap::from([
        ((0, 0), vec![0, 1]),
        ((1, 0), vec![0, 2]),
        ((9, 9), vec![1]),
        ((8, 8), vec![2]),
    ]);
    let [(first, a), (second, b)] = neighbours;
    let decided = vec![Some((1, 0.5)), Some((a, 0.9)), Some((b, 0.9))];
    let all = vec![Some(own.clone()), Some(first), Some(second)];
    let model = Some(InkModel {
        ink: [0.0; 3],
        alpha: Vec::new(),
    });
    let models = vec![model.clone(), model];
    let alike = |_: usize, _: usize| true;
    let (shade, _) = pool_alike(
        0, 0, &own, &decided, &all, &ends, &at_corner, &alike, &models,
    )
    .expect("two alike features");
    shade + 1
}

#[test]
fn inside_a_run_the_run_decides_the_shade() {
    // Its own ink leans to the camp line a little; Marchiennes on both sides.
    let shade = shade_of_middle(
        scored(-50.0, -45.0),
        [(scored(-20.0, -60.0), 2), (scored(-20.0, -60.0), 2)],
    );
    assert_eq!(shade, 2);
}

#[test]
fn where_two_lines_meet_the_hexside_is_told_by_its_own_ink() {
    // The camp line at one end, the lines of Marchiennes (seen more clearly) at the other: the
    // pooled run would say Marchiennes, its own ink says camp.
    let shade = shade_of_middle(
        scored(-50.0, -45.0),
        [(scored(-40.0, -30.0), 1), (scored(-10.0, -70.0), 2)],
    );
    assert_eq!(shade, 1);
}

/// A calm sheet (fits of 10) with a textured region on its right (fits of 50) and one crowded
/// hexside (a label: 90) in the calm part: the typical fit around each hexside follows the
/// region, not the one crowded spot.
#[test]
fn the_typical_fit_around_a_hexside_follows_its_region_not_one_crowded_spot() {
    let mut middles = Vec::new();
    let mut values = Vec::new();
    for x in 0..40 {
        for y in 0..20 {
            middles.push([x as f32, y as f32]);
            values.push(Some(if x >= 20 { 50.0 } else { 10.0 }));
        }
    }
    let crowded = 5 * 20 + 10;
    values[crowded] = Some(90.0);
    values[0] = None;
    let around = local_quantiles(&middles, &values, 4.0, 0.3);
    assert_eq!(around[crowded], Some(10.0));
    assert_eq!(around[0], Some(10.0), "a hexside with no fit of its own");
    assert_eq!(around[35 * 20 + 10], Some(50.0));
    assert_eq!(around[10 * 20 + 10], Some(10.0));
}
