/* ui/panel_draw.h — draws a snapshot (ui/panel_model.h) onto an SDL surface with SDL2_ttf text.
 * The same drawing serves the window and the headless screenshot. */
#ifndef TTEMU_UI_PANEL_DRAW_H
#define TTEMU_UI_PANEL_DRAW_H

#include <SDL.h>
#include <SDL_ttf.h>

#include "ui/panel_model.h"

#define UI_W           1280
#define UI_H           720
#define UI_MAX_BUTTONS 8
#define UI_SPEEDS      7 /* speed slider notches: 1, 10, ..., 1,000,000 cycles per frame */

/* The controls' state as the panel shows it; the drawing fills in where the buttons are. */
typedef struct {
    const char *mode; /* "running", "paused", "until stall", "until sem 3 changes", "ended" */
    int speed;        /* 0..UI_SPEEDS-1 */
    uint64_t step_n;
    int sel_sem;
    const char *note; /* last event, e.g. "stall at cycle 812: T2 held (semwait)" */
    bool live;        /* draw the controls (not in a headless screenshot) */
    /* out: where the drawing put the clickable things */
    SDL_Rect button[UI_MAX_BUTTONS];
    SDL_Keycode button_key[UI_MAX_BUTTONS];
    int nbuttons;
    SDL_Rect slider;
} ui_ctl_t;

uint64_t ui_speed_cycles(int speed);
/* Draw s onto dst (UI_W x UI_H or larger). */
void ui_draw(SDL_Surface *dst, TTF_Font *font, const ui_snap_t *s, ui_ctl_t *ctl);

#endif
