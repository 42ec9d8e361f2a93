//! Live validation: runs `bataille_validator` (the one place rules live) on the document after
//! each edit and turns its diagnostics into the panel's rows. Small documents are checked on the
//! spot; when a check took longer than a frame can spare, the next ones run on a worker thread
//! that takes the latest snapshot of the document (older requests still queued are skipped) and
//! whose results are dropped when a newer edit was made meanwhile — a frame never waits.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use bataille_schema::{Map, Scenario};
use bataille_validator::{Options, validate_documents, validate_map};

use crate::model::document::Document;
use bataille_validator::Diagnostic;

/// Where validation runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// On the UI thread while the last check took less than [`LiveValidation::budget`], on the
    /// worker otherwise.
    Auto,
    /// Always on the UI thread (tests, benchmarks).
    Inline,
    /// Always on the worker.
    Background,
}

/// The rows of one run of the validator.
pub fn check(scenario: Option<&Scenario>, map: &Map) -> Vec<Diagnostic> {
    check_with(scenario, map, &[])
}

/// The rows of one run of the validator, with the miniatures systems the scenario names (so
/// its `miniatures` checks — ratings missing or out of the system's range, compositions — run
/// in the editor too, as `bataille validate` runs them).
pub fn check_with(
    scenario: Option<&Scenario>,
    map: &Map,
    systems: &[bataille_schema::System],
) -> Vec<Diagnostic> {
    let mut options = Options::editor();
    options.systems = systems.to_vec();
    let found = match scenario {
        Some(s) => validate_documents(s, map, &options),
        None => validate_map(map, &options),
    };
    let mut rows: Vec<Diagnostic> = found;
    sort_rows(&mut rows);
    rows
}

/// The order rows are listed in: errors first, then by hex, code and message.
pub fn sort_rows(rows: &mut [Diagnostic]) {
    rows.sort_by(|a, b| {
        (a.severity, &a.hex, a.code, &a.message).cmp(&(b.severity, &b.hex, b.code, &b.message))
    });
}

struct Job {
    generation: u64,
    scenario: Option<Arc<Scenario>>,
    map: Arc<Map>,
    systems: Arc<Vec<bataille_schema::System>>,
}

struct Done {
    generation: u64,
    rows: Vec<Diagnostic>,
    took: Duration,
}

/// The validator connection: inline or on a worker thread, with stale results dropped.
pub struct LiveValidation {
    pub mode: Mode,
    /// A check slower than this moves the next ones off the UI thread (`Mode::Auto`).
    pub budget: Duration,
    /// How long the last check took (on whichever thread).
    pub last_duration: Duration,
    generation: u64,
    /// The generation of the rows shown.
    shown: u64,
    jobs: Option<Sender<Job>>,
    results: Option<Receiver<Done>>,
    /// The map last sent to the worker (and its revision), reused while the map is unchanged.
    map_snapshot: Option<(Option<u64>, Arc<Map>)>,
    /// The scenario last sent to the worker, by revision.
    scenario_snapshot: Option<(Option<u64>, Arc<Scenario>)>,
    /// The miniatures systems the scenario names, loaded (set by the app).
    pub systems: Arc<Vec<bataille_schema::System>>,
}

impl Default for LiveValidation {
    fn default() -> Self {
        Self {
            mode: Mode::Auto,
            budget: Duration::from_millis(8),
            last_duration: Duration::ZERO,
            generation: 0,
            shown: 0,
            jobs: None,
            results: None,
            map_snapshot: None,
            scenario_snapshot: None,
            systems: Arc::new(Vec::new()),
        }
    }
}

impl LiveValidation {
    /// Whether a newer check is running than the rows shown.
    pub fn pending(&self) -> bool {
        self.shown != self.generation
    }

    /// Checks the document: returns the rows when checked on the spot, `None` when the check
    /// went to the worker (collect it with [`LiveValidation::poll`]).
    ///
    /// `revisions` (the map's and the scenario's) let unchanged parts reuse their snapshot
    /// without comparing or copying them; without them the map is compared.
    pub fn request(
        &mut self,
        doc: &Document,
        revisions: Option<(u64, u64)>,
    ) -> Option<Vec<Diagnostic>> {
        self.generation += 1;
        let inline = match self.mode {
            Mode::Inline => true,
            Mode::Background => false,
            Mode::Auto => self.last_duration < self.budget,
        };
        let scenario = doc.scenario.as_ref().map(|s| &s.scenario);
        if inline {
            let start = Instant::now();
            let rows = check_with(scenario, &doc.map, &self.systems);
            self.last_duration = start.elapsed();
            self.shown = self.generation;
            return Some(rows);
        }
        let (map_rev, scenario_rev) = revisions.unzip();
        let map = match &self.map_snapshot {
            Some((rev, map)) if rev.is_some() && *rev == map_rev => map.clone(),
            Some((None, map)) if map_rev.is_none() && **map == doc.map => map.clone(),
            _ => {
                let map = Arc::new(doc.map.clone());
                self.map_snapshot = Some((map_rev, map.clone()));
                map
            }
        };
        let scenario = match (&self.scenario_snapshot, scenario) {
            (_, None) => None,
            (Some((Some(rev), s)), Some(_)) if Some(*rev) == scenario_rev => Some(s.clone()),
            (_, Some(s)) => {
                let s = Arc::new(s.clone());
                self.scenario_snapshot = Some((scenario_rev, s.clone()));
                Some(s)
            }
        };
        let job = Job {
            generation: self.generation,
            scenario,
            map,
            systems: self.systems.clone(),
        };
        let job = match &self.jobs {
            Some(tx) => match tx.send(job) {
                Ok(()) => return None,
                Err(failed) => failed.0,
            },
            None => job,
        };
        if let Some(job) = self.start_worker_with(job) {
            // No worker: check here after all.
            let rows = check_with(job.scenario.as_deref(), &job.map, &job.systems);
            self.shown = job.generation;
            return Some(rows);
        }
        None
    }

    /// Starts the worker and hands it `job`. Returns the job back when no thread could be
    /// started.
    fn start_worker_with(&mut self, job: Job) -> Option<Job> {
        let (jobs_tx, jobs_rx) = channel::<Job>();
        let (done_tx, done_rx) = channel::<Done>();
        let spawned = std::thread::Builder::new()
            .name("validator".into())
            .spawn(move || worker(jobs_rx, done_tx));
        if spawned.is_err() {
            return Some(job);
        }
        if let Err(failed) = jobs_tx.send(job) {
            return Some(failed.0);
        }
        self.jobs = Some(jobs_tx);
        self.results = Some(done_rx);
        None
    }

    /// The rows of the latest check when they have just arrived; stale ones are dropped.
    pub fn poll(&mut self) -> Option<Vec<Diagnostic>> {
        let results = self.results.as_ref()?;
        let mut fresh = None;
        loop {
            match results.try_recv() {
                Ok(done) => {
                    self.last_duration = done.took;
                    if done.generation == self.generation {
                        fresh = Some(done.rows);
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.jobs = None;
                    self.results = None;
                    break;
                }
            }
        }
        if fresh.is_some() {
            self.shown = self.generation;
        }
        fresh
    }

    /// Waits (at most `timeout`) for the latest check; for tests and benchmarks.
    pub fn wait(&mut self, timeout: Duration) -> Option<Vec<Diagnostic>> {
        let start = Instant::now();
        while self.pending() && start.elapsed() < timeout {
            if let Some(rows) = self.poll() {
                return Some(rows);
            }
            self.results.as_ref()?;
            std::thread::sleep(Duration::from_micros(200));
        }
        None
    }
}

fn worker(jobs: Receiver<Job>, done: Sender<Done>) {
    while let Ok(mut job) = jobs.recv() {
        // Only the latest snapshot matters.
        while let Ok(newer) = jobs.try_recv() {
            job = newer;
        }
        let start = Instant::now();
        let rows = check_with(job.scenario.as_deref(), &job.map, &job.systems);
        let result = Done {
            generation: job.generation,
            rows,
            took: start.elapsed(),
        };
        if done.send(result).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::{NewMapSettings, ScenarioFile};

    fn doc() -> Document {
        let mut doc = Document::new_map(&NewMapSettings::default());
        let mut s = crate::model::scenario_edit::new_scenario("T", "m.ron");
        // A corps nobody commands, without a leader: errors to find.
        s.armies.push(bataille_schema::scenario::Army {
            id: "fr".into(),
            name: "French".into(),
            colour: None,
            friendly_edges: vec![],
            commanders: vec![],
            corps: vec![bataille_schema::scenario::Corps {
                id: "c".into(),
                name: "C".into(),
                colour: "#ff0000".into(),
                leader: None,
                friendly_edges: vec![],
                allow: vec![],
            }],
            units: vec![],
        });
        doc.scenario = Some(ScenarioFile {
            scenario: s,
            path: "s.ron".into(),
        });
        doc
    }

    #[test]
    fn inline_and_background_agree_and_stale_results_are_dropped() {
        let doc = doc();
        let mut inline = LiveValidation {
            mode: Mode::Inline,
            ..Default::default()
        };
        let expected = inline.request(&doc, None).expect("inline rows");
        assert!(
            expected
                .iter()
                .any(|d| d.code == bataille_validator::Code::E0403),
            "{expected:?}"
        );
        let mut bg = LiveValidation {
            mode: Mode::Background,
            ..Default::default()
        };
        assert!(bg.request(&doc, None).is_none());
        assert!(bg.request(&doc, None).is_none());
        assert!(bg.pending());
        let rows = bg.wait(Duration::from_secs(20)).expect("worker rows");
        assert_eq!(rows, expected);
        assert!(!bg.pending());
    }
}
