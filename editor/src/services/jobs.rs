//! Long work off the UI thread (decoding a scan, classifying hexes): a thread with a progress
//! fraction the UI reads each frame, a cancel flag the work polls, and the result collected
//! when the thread is done. The window never waits on a job.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a job asks the UI to repaint to show its progress.
const REPAINT_EVERY: Duration = Duration::from_millis(100);

/// A piece of work running on its own thread.
pub struct Job<T> {
    /// What the job does, for the progress bar ("Importing the scan").
    pub label: String,
    handle: Option<JoinHandle<T>>,
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    started: Instant,
}

/// How a finished job ended.
#[derive(Debug)]
pub enum JobEnd<T> {
    Done(T),
    /// The thread panicked (a bug): the message to show.
    Failed(String),
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread. The work gets a progress callback: it reports a fraction
    /// in [0, 1] and returns `false` once the user has cancelled.
    pub fn spawn(
        label: &str,
        ctx: &egui::Context,
        work: impl FnOnce(&dyn Fn(f32) -> bool) -> T + Send + 'static,
    ) -> Job<T> {
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, c, ctx) = (progress.clone(), cancel.clone(), ctx.clone());
        let handle = std::thread::Builder::new()
            .name(label.to_owned())
            .spawn(move || {
                let last_repaint = std::cell::Cell::new(Instant::now());
                let report = |fraction: f32| {
                    p.store(fraction.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
                    if last_repaint.get().elapsed() >= REPAINT_EVERY {
                        last_repaint.set(Instant::now());
                        ctx.request_repaint();
                    }
                    !c.load(Ordering::Relaxed)
                };
                let out = work(&report);
                ctx.request_repaint();
                out
            });
        Job {
            label: label.to_owned(),
            handle: handle.ok(),
            progress,
            cancel,
            started: Instant::now(),
        }
    }

    /// The fraction done, in [0, 1].
    pub fn progress(&self) -> f32 {
        f32::from_bits(self.progress.load(Ordering::Relaxed))
    }

    /// Asks the work to stop; it ends at its next progress report.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// How long the job has been running.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The result once the thread has finished (never blocks otherwise).
    pub fn poll(&mut self) -> Option<JobEnd<T>> {
        match &self.handle {
            Some(handle) if !handle.is_finished() => None,
            Some(_) => {
                let handle = self.handle.take()?;
                Some(match handle.join() {
                    Ok(value) => JobEnd::Done(value),
                    Err(_) => JobEnd::Failed(format!("{} stopped unexpectedly", self.label)),
                })
            }
            None => Some(JobEnd::Failed(format!(
                "{} could not start a thread",
                self.label
            ))),
        }
    }

    /// Waits for the thread to finish (tests, benchmarks).
    pub fn wait(mut self) -> JobEnd<T> {
        match self.handle.take() {
            Some(handle) => match handle.join() {
                Ok(value) => JobEnd::Done(value),
                Err(_) => JobEnd::Failed(format!("{} stopped unexpectedly", self.label)),
            },
            None => JobEnd::Failed(format!("{} could not start a thread", self.label)),
        }
    }
}

/// The running job's progress bar, if there is one; its Cancel button cancels it.
pub fn progress_row<T: Send + 'static>(ui: &mut egui::Ui, job: Option<&Job<T>>) {
    if let Some(job) = job
        && progress_ui(ui, job)
    {
        job.cancel();
    }
}

/// A progress bar with a Cancel button; returns whether Cancel was clicked.
pub fn progress_ui<T: Send + 'static>(ui: &mut egui::Ui, job: &Job<T>) -> bool {
    let mut cancel = false;
    ui.horizontal(|ui| {
        let text = if job.is_cancelled() {
            format!("{}: cancelling…", job.label)
        } else {
            format!("{}… {:.0} %", job.label, job.progress() * 100.0)
        };
        ui.add(
            egui::ProgressBar::new(job.progress())
                .desired_width(160.0)
                .text(text),
        );
        if ui.button("Cancel").clicked() {
            cancel = true;
        }
    });
    cancel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_progress_and_cancels() {
        let ctx = egui::Context::default();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let job = Job::spawn("counting", &ctx, move |progress| {
            let _ = rx.recv();
            let mut n = 0;
            while progress(0.5) && n < 1_000_000 {
                n += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            n
        });
        job.cancel();
        let _ = tx.send(());
        match job.wait() {
            JobEnd::Done(n) => assert_eq!(n, 0),
            JobEnd::Failed(e) => panic!("{e}"),
        }
    }
}
