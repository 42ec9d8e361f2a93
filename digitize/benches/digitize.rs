//! Budgets: importing a 10,000 × 7,000 JPEG scan (decode, tiles, overview) ≤ 3 s; classifying
//! its 2,016 hexes ≤ 2 s, measured as the command runs it (`command_pass`: the clicks refined
//! on the print, the map's shape, the terrain, the hexsides with the lines traced and the
//! terrain in doubt judged again). Baselines beside them: decoding alone, the terrain and the
//! hexsides each alone.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "tests, benches and examples panic to report a failure"
)]

#[path = "support/mod.rs"]
mod support;

use std::time::Duration;

use bataille_digitize::classify::{
    ClassifyOptions, HexsideSamples, suggest_hexsides, suggest_terrain,
};
use bataille_digitize::scan::{ImportOptions, ScanLimits, import_scan, load_scan, no_progress};
use bataille_schema::Id;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let map = support::big_map();
    let path = support::ensure_big_scan(&map);
    let matrix = bataille_digitize::GridMapping::global(support::big_scan_matrix(&map));
    let mut group = c.benchmark_group("scan_10000x7000");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.warm_up_time(Duration::from_secs(1));
    group.bench_function("decode_only", |b| {
        b.iter(|| load_scan(&path, &ScanLimits::default(), &no_progress).expect("load"))
    });
    group.bench_function("import_decode_tiles_overview", |b| {
        b.iter(|| import_scan(&path, &ImportOptions::default(), &no_progress).expect("import"))
    });
    group.finish();

    let scan = load_scan(&path, &ScanLimits::default(), &no_progress).expect("load");
    let samples = support::samples(&map);
    let options = ClassifyOptions::default();
    let mut group = c.benchmark_group("classify_2016_hexes");
    group.sample_size(10);
    group.bench_function("terrain", |b| {
        b.iter(|| suggest_terrain(&scan, &map.grid, &matrix, &samples, &options).expect("classify"))
    });
    let terrain = suggest_terrain(&scan, &map.grid, &matrix, &samples, &options).expect("classify");
    let streams: Vec<_> = map.hexsides["stream"]
        .iter()
        .take(3)
        .filter_map(|r| map.grid.parse_hexside(r.as_str()).ok())
        .collect();
    let hexside_samples = HexsideSamples {
        features: [(Id::from("stream"), streams)].into_iter().collect(),
        plain: Vec::new(),
        ..HexsideSamples::default()
    };
    group.bench_function("hexsides", |b| {
        b.iter(|| {
            suggest_hexsides(
                &scan,
                &map.grid,
                &matrix,
                &terrain,
                &hexside_samples,
                &options,
            )
            .expect("hexsides")
        })
    });
    let clicks = support::clicks(&map);
    let with_legend = support::hexside_samples(&map);
    group.bench_function("command_pass", |b| {
        b.iter(|| support::command_pass(&scan, &map, &clicks, &samples, &with_legend))
    });
    // The same pass on the map with roads drawn through the hexes, three crossings marked:
    // the roads traced too, as `bataille digitize` runs it with `path_samples`.
    let roads = support::big_map_with_roads();
    let roads_scan = import_scan(
        &support::ensure_big_roads_scan(&roads),
        &ImportOptions::default(),
        &no_progress,
    )
    .expect("import")
    .scan;
    let paths = support::road_samples(&roads);
    group.bench_function("command_pass_with_roads", |b| {
        b.iter(|| {
            support::command_pass_with_roads(
                &roads_scan,
                &roads,
                &clicks,
                &samples,
                &with_legend,
                &paths,
            )
        })
    });
    group.finish();
}

criterion_group!(digitize, benches);
criterion_main!(digitize);
