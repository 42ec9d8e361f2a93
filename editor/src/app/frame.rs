//! The frame: the root of the window (panels, map, dialogs, toasts), the close request,
//! shortcuts read from the UI commands (`UiCommand`), and pointer input on the map.

use std::time::Duration;

use egui::{Key, ViewportCommand};

use crate::model::history::Change;
use crate::services::digitise::ImportEnd;
use crate::tools::{StrokeKind, Tool};

use crate::app::*;

/// The left dock's width: the same for every tool, so the palette and the map stay still.
pub const LEFT_DOCK_WIDTH: f32 = 240.0;

impl EditorApp {
    // -----------------------------------------------------------------------------------------
    // The frame.

    /// Shows the whole editor in `ui` (the root of the window, or a test harness).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if !crate::map::text::installed(&ctx) {
            // The map's text in the symbology's font, from the first frame on.
            crate::map::text::install(&ctx);
        }
        self.own.egui_ctx = ctx.clone();
        // The counters by hex, which panels and layers read: rebuilt when the scenario changed.
        let scenario = self.doc.scenario.as_ref().map(|f| &f.scenario);
        let revision = self.doc.scenario_revision();
        self.services
            .counters
            .refresh(revision, scenario, &self.doc.map.grid);
        self.ui.check_selection(&self.doc);
        self.own.time = ui.input(|i| i.time);
        self.handle_close_request(&ctx);
        self.poll_recovery_writer();
        self.sync_validation_systems();
        self.validate_now();
        self.services.diagnostics.poll(&ctx);
        self.shortcuts(&ctx);
        self.digitise_frame(&ctx);
        self.export_frame(&ctx);
        self.open_frame(&ctx);
        self.variants_frame();
        if self.ui.table.shown {
            let systems = self.scenario_systems();
            let mut table = std::mem::take(&mut self.ui.table);
            let map_rect = self.ui.map_rect;
            self.with_context(|cx, panels| {
                panels
                    .table_window
                    .show(cx, &ctx, &mut table, &systems, map_rect);
            });
            self.ui.table = table;
        }
        let menus = crate::panels::menu_bar::MenuState {
            table_shown: self.ui.table.shown,
            digitise_open: self.services.digitise.open,
        };
        self.with_context(|cx, panels| panels.menu_bar.ui(cx, ui, menus));
        self.with_context(|cx, panels| panels.tool_bar.ui(cx, ui));
        let digitise = crate::panels::status_bar::DigitiseStatus {
            loading: self.services.digitise.loading(),
            to_check: (self.doc.map.background.is_some() || !self.doc.map.checked.is_empty())
                .then(|| (self.doc.map.grid.hex_count(), self.doc.hexes_to_check())),
        };
        self.with_context(|cx, panels| panels.status_bar.ui(cx, ui, digitise));
        if self.ui.settings.show_diagnostics {
            egui::Panel::bottom("diagnostics")
                .resizable(true)
                .show(ui, |ui| {
                    self.with_context(|cx, panels| panels.diagnostics.ui(cx, ui));
                });
        }
        let (left_width, right_width) =
            crate::panels::right_dock::dock_widths(ui.max_rect().width(), LEFT_DOCK_WIDTH);
        if self.ui.settings.show_left_dock {
            egui::Panel::left("left-dock")
                .resizable(false)
                .exact_size(left_width)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        self.with_context(|cx, panels| panels.tool_dock.ui(cx, ui));
                    });
                });
        }
        if self.ui.settings.show_right_dock {
            egui::Panel::right("inspector")
                .resizable(true)
                .default_size(right_width)
                .show(ui, |ui| {
                    // Content wider than the dock scrolls sideways instead of widening it
                    // (the hexside results widened it 54 points, moving the map, issue 21);
                    // text still wraps at the dock's width.
                    let width = ui.available_width();
                    egui::ScrollArea::horizontal()
                        .id_salt("right-dock-width")
                        .auto_shrink([false, false])
                        .show(ui, |ui| {
                            ui.set_max_width(width);
                            self.right_dock(ui);
                        });
                });
        }
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| self.map_ui(ui));
        let scan_loaded = self.services.digitise.scan_ready(&self.doc);
        let mut legend = std::mem::take(&mut self.panels.legend);
        let map_rect = self.ui.map_rect;
        self.with_context(|cx, _| legend.show(cx, &ctx, scan_loaded, map_rect));
        self.panels.legend = legend;
        let mut dialog = self.ui.dialog.take();
        let browse = self.own.config.picker.available();
        self.with_context(|cx, _| crate::panels::dialogs::show(cx, &ctx, &mut dialog, browse));
        self.ui.dialog = dialog;
        self.toasts_ui(&ctx);
        // A command may queue another (a guard's Discard, then what waited for it): they run in
        // this frame too, a few rounds at most.
        for _ in 0..4 {
            let queued = self.own.commands.take();
            if queued.is_empty() {
                break;
            }
            for command in queued {
                self.execute(command);
            }
        }
        if self.is_dirty() {
            self.maybe_write_recovery(true);
            ctx.request_repaint_after(self.own.config.recovery_interval);
        }
        let title = self.window_title();
        if title != self.own.title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.own.title = title;
        }
    }

    /// The right dock: its tab strip, then the order of battle, the inspector or the digitise
    /// page.
    fn right_dock(&mut self, ui: &mut egui::Ui) {
        use crate::context::command::DockTab;
        let tab = self
            .panels
            .right_dock
            .tabs_ui(ui, self.services.digitise.open);
        if tab == DockTab::Digitise {
            self.with_digitise(|cx, panels, digitise| panels.digitise.ui(cx, ui, digitise));
        } else {
            let systems = self.scenario_systems();
            self.with_context(|cx, panels| panels.right_dock.page_ui(cx, ui, tab, systems));
        }
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) {
            return;
        }
        if self.own.allow_close {
            return;
        }
        if self.is_dirty() {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.ui.dialog = Some(self.guard_dialog(UiCommand::Quit));
        } else {
            self.remove_recovery();
            self.save_settings();
        }
    }

    /// Every shortcut comes from the UI commands (`UiCommand`); a dialog keeps the keyboard (but Escape),
    /// a text field keeps plain keys.
    fn shortcuts(&mut self, ctx: &egui::Context) {
        let typing = ctx.text_edit_focused();
        // A modal keeps the keyboard; the legend editor is a window beside the map (Undo works).
        let dialog_open = self.ui.dialog.is_some() || self.panels.digitise.import_dialog.is_some();
        for command in crate::context::shortcuts::pressed(ctx, typing, dialog_open) {
            self.request(command);
        }
    }

    fn map_ui(&mut self, ui: &mut egui::Ui) {
        let (response, painter) =
            ui.allocate_painter(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map"));
        let rect = response.rect;
        self.ui.map_rect = rect;
        painter.rect_filled(rect, 0.0, egui::Color32::from_gray(96));
        let pointer = ui.input(|i| i.pointer.latest_pos());
        let map = crate::layers::MapFrame {
            painter: &painter,
            rect,
            pointer,
        };
        // The view placed in this frame's rectangle (a fit asked for, the map kept still when a
        // panel beside it changed) before anything is drawn in it.
        self.ui.view.place(&self.doc.map.grid, rect);
        // The layers, bottom first (`MapLayerKind::ORDER`), each handed the context. The tool's
        // feedback is the top layer, painted once this frame's input has moved the pointer's
        // things.
        use crate::layers::MapLayerKind;
        for kind in MapLayerKind::ORDER {
            if kind != MapLayerKind::ToolFeedback {
                self.with_layer(kind, |cx, layer| layer.paint(cx, &map));
            }
        }

        let (pointer, delta, primary, secondary, middle, space, alt, zoom_delta, wheel) =
            ui.input(|i| {
                let wheel: f32 = i
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::MouseWheel {
                            unit,
                            delta,
                            modifiers,
                            ..
                        } if !modifiers.command && !modifiers.shift => Some(match unit {
                            egui::MouseWheelUnit::Point => delta.y,
                            egui::MouseWheelUnit::Line => delta.y * 40.0,
                            egui::MouseWheelUnit::Page => delta.y * 400.0,
                        }),
                        _ => None,
                    })
                    .sum();
                (
                    i.pointer.latest_pos(),
                    i.pointer.delta(),
                    i.pointer.primary_down(),
                    i.pointer.secondary_down(),
                    i.pointer.middle_down(),
                    i.key_down(Key::Space),
                    i.modifiers.alt,
                    i.zoom_delta(),
                    wheel,
                )
            });
        let grid = &self.doc.map.grid;
        self.ui.hovered = if response.hovered() {
            pointer.and_then(|p| self.ui.view.hex_at(grid, rect, p))
        } else {
            None
        };

        // Zoom to the cursor.
        if response.hovered()
            && let Some(pos) = pointer
        {
            let factor = zoom_delta * (wheel * 0.0025).exp();
            if (factor - 1.0).abs() > 1e-4 {
                self.ui.view.zoom_to(rect, pos, self.ui.view.zoom * factor);
            }
        }

        // A click whose button went down and up within this frame (touchpads, remote
        // desktops) acts exactly like a held click: pressed, then released, this frame.
        let tap = self.tap_on_map(ui, rect);
        let (primary, secondary, middle) = match tap {
            Some(b) => (
                b == egui::PointerButton::Primary,
                b == egui::PointerButton::Secondary,
                b == egui::PointerButton::Middle,
            ),
            None => (primary, secondary, middle),
        };

        // The map's layers, top first: first a click mode that is on (the legend's eyedropper
        // on the scan) holds the click, then the layers' own input; what none takes is the
        // tool's stroke.
        let panning = space || middle;
        let mut took = false;
        if self.ui.tools.stroke.is_none() {
            let input = crate::layers::MapPointer {
                ui,
                response: &response,
                tap,
                panning,
                modal_open: !self.no_modal_open(),
            };
            took =
                MapLayerKind::ORDER.into_iter().rev().any(|kind| {
                    self.with_layer(kind, |cx, layer| layer.mode_input(cx, &map, &input))
                }) || MapLayerKind::ORDER
                    .into_iter()
                    .rev()
                    .any(|kind| self.with_layer(kind, |cx, layer| layer.input(cx, &map, &input)));
        }

        self.with_context(|cx, _| crate::layers::keys::input(cx, ui, &response));
        // Strokes.
        let pressed_on_map = response.is_pointer_button_down_on() || tap.is_some();
        let down_on = pressed_on_map && !took;
        if pressed_on_map && !response.has_focus() {
            // Keys go to the map again (not to the last button clicked).
            response.request_focus();
        }
        let mut pressed = false;
        if self.ui.tools.stroke.is_none() && down_on {
            let kind = if middle || (space && primary) {
                Some(StrokeKind::Pan)
            } else if took {
                None
            } else if secondary {
                Some(StrokeKind::Remove)
            } else if primary {
                Some(StrokeKind::Add)
            } else {
                None
            };
            if let Some(kind) = kind {
                self.ui.tools.stroke = Some(kind);
                pressed = true;
            }
        }
        if let Some(kind) = self.ui.tools.stroke {
            if !down_on {
                let out = self.ui.tools.end_stroke();
                self.request(AppCommand::Stroke(out));
            } else if kind == StrokeKind::Pan {
                self.ui.view.pan_by(delta);
            } else if let Some(pos) = pointer {
                let g = self.ui.view.to_grid(rect, pos);
                let out = if self.ui.tools.tool == Tool::Zone && !alt {
                    let unit = match self.ui.selection.item {
                        Some(crate::panels::oob::Sel::Unit(a, u)) => Some((a, u)),
                        _ => None,
                    };
                    self.ui
                        .zone_tool
                        .stroke_input(&self.doc, unit, [g.x, g.y], kind, pressed)
                } else {
                    self.ui
                        .tools
                        .stroke_input(&self.doc, [g.x, g.y], kind, pressed, alt)
                };
                self.request(AppCommand::Stroke(out));
            }
        }
        if tap.is_some() && self.ui.tools.stroke.is_some() {
            // The button is already up: the stroke ends in the frame it began.
            let out = self.ui.tools.end_stroke();
            self.request(AppCommand::Stroke(out));
        }
        self.with_layer(MapLayerKind::ToolFeedback, |cx, layer| {
            layer.paint(cx, &map)
        });
        if response.hovered() {
            let icon = if self.ui.tools.stroke == Some(StrokeKind::Pan) || space {
                egui::CursorIcon::Grabbing
            } else {
                egui::CursorIcon::Crosshair
            };
            ui.ctx().set_cursor_icon(icon);
        }
    }

    /// Per frame, before the panels: the digitising session's jobs (a finished import sets the
    /// map's background, one undo step, or says why it could not), its page brought up in the
    /// right dock when it opens, and the import dialog.
    fn digitise_frame(&mut self, ctx: &egui::Context) {
        match self.services.digitise.frame(ctx, &self.doc) {
            Some(ImportEnd::Imported(change)) => {
                if let Some(change) = change {
                    self.edit("Import scan", vec![Change::Digitise(change)]);
                }
                self.ui.view.fit_pending = true;
            }
            Some(ImportEnd::Failed(message)) => {
                self.show_error(
                    "Could not import the scan",
                    message,
                    "Use a PNG, JPEG or TIFF scan of at most 12,000 × 12,000 pixels (scan at a \
                     lower resolution or crop it), then Digitise › Import scan again.",
                );
            }
            None => {}
        }
        for note in std::mem::take(&mut self.services.digitise.notes) {
            self.toast(note);
        }
        if self.services.digitise.just_opened() {
            // Opened from the menu: its page comes up in the right dock.
            self.panels.right_dock.tab = crate::context::command::DockTab::Digitise;
            self.ui.settings.show_right_dock = true;
        }
        self.with_context(|cx, panels| panels.digitise.import_dialog_ui(cx, ctx));
    }

    /// The button of a click pressed and released within this frame over the map (none while a
    /// dialog is open or a stroke runs).
    fn tap_on_map(&self, ui: &egui::Ui, rect: egui::Rect) -> Option<egui::PointerButton> {
        if self.ui.tools.stroke.is_some() || !self.no_modal_open() {
            return None;
        }
        let tap = ui.input(|i| {
            let mut down: Option<(egui::PointerButton, egui::Pos2)> = None;
            for event in &i.events {
                if let egui::Event::PointerButton {
                    pos,
                    button,
                    pressed,
                    ..
                } = event
                {
                    match (*pressed, down) {
                        (true, _) => down = Some((*button, *pos)),
                        (false, Some((b, at))) if b == *button && rect.contains(at) => {
                            return Some((b, at));
                        }
                        _ => {}
                    }
                }
            }
            None
        });
        // Not a click on a window over the map (the table overlay's, the legend editor's).
        let (button, at) = tap?;
        let layer = ui.ctx().layer_id_at(at);
        layer.is_none_or(|l| l == ui.layer_id()).then_some(button)
    }

    fn toasts_ui(&mut self, ctx: &egui::Context) {
        let now = self.own.time;
        self.ui.toasts.retain(|t| t.until > now);
        if self.ui.toasts.is_empty() {
            return;
        }
        egui::Area::new(egui::Id::unique("toasts"))
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -48.0))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .show(ctx, |ui| {
                for toast in &self.ui.toasts {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        // As wide as its words need, at most 420 points: an area anchored in the
                        // corner otherwise lays text out in the width of its last frame (a
                        // notice wrapped mid-word, issue 21).
                        let font = egui::TextStyle::Body.resolve(ui.style());
                        let natural = ui.ctx().fonts_mut(|f| {
                            f.layout_no_wrap(toast.text.clone(), font, egui::Color32::WHITE)
                                .size()
                                .x
                        });
                        ui.set_width(natural.min(420.0).ceil());
                        ui.add(egui::Label::new(&toast.text).wrap());
                    });
                }
            });
        if let Some(next) = self.ui.toasts.iter().map(|t| t.until).reduce(f64::min) {
            ctx.request_repaint_after(Duration::from_secs_f64((next - now).max(0.05)));
        }
    }

    /// The tag's rectangle on screen (tests drag it).
    pub fn table_overlay_handle(&self) -> Option<egui::Rect> {
        let rect = self.ui.map_rect;
        let to_screen = |p: egui::Pos2| self.ui.view.to_screen(rect, p);
        self.ui
            .table
            .handle(&to_screen, rect, &egui::FontId::proportional(13.0))
    }
}
