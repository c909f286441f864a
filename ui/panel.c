/* ui/panel.c — the live panel: window, events, controls, and the run observer (docs/ui.md).
 *
 * The panel is a run observer (run/run.h): run_loop calls ui_after between batches of cycles
 * and the panel answers how many cycles may run before it looks again. It only reads the tile
 * (ui/panel_model.c takes a snapshot), so a run with the panel gives the same report as one
 * without. Pausing is ui_after not returning; stepping N cycles is returning N; "run until" modes
 * return 1 and test their condition after every cycle.
 *
 * Headless: --ui-screenshot needs no video at all (it draws onto a plain SDL_Surface and saves
 * it); --ui under SDL_VIDEODRIVER=dummy or offscreen has nobody to press a key, so it never
 * pauses and closes itself when the run is over (this is how the tests run it). */
#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/cp_views.h"
#include "debug/diag.h"
#include "ui/panel.h"
#include "ui/panel_draw.h"

/* fonts-dejavu-core (scripts/deps.sh). */
#define UI_FONT        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define UI_FONT_PT     13
#define UI_FRAME_MS    33   /* at most ~30 frames a second while running */
#define UI_UNTIL_FRAME 4096 /* in a "run until" mode, look at events every this many cycles */
#define UI_SHOT_PERIOD 64   /* screenshot of the final state: strip sampled every 64 cycles */

typedef enum { M_RUN, M_PAUSE, M_UNTIL_STALL, M_UNTIL_SEM } ui_mode_t;

struct ui {
    run_t *r;
    ui_opts_t o;
    bool video; /* SDL video initialised (--ui) */
    bool headless_video;
    SDL_Window *win;
    TTF_Font *font;
    SDL_Surface *canvas;
    ui_strip_t strip;
    ui_snap_t snap;
    ui_ctl_t ctl;
    ui_mode_t mode;
    uint64_t step_pending;
    bool at_done, quit, failed;
    uint64_t frame_at;           /* cycle of the next frame */
    uint32_t stall_sig;          /* M_UNTIL_STALL: what was stalled at the last cycle */
    unsigned sem_value, sem_max; /* M_UNTIL_SEM: the chosen semaphore when the mode began */
    uint32_t last_frame;
    char note[200];
    char mode_text[48];
};

/* ---- what counts as a stall ------------------------------------------------------------------- */

/* Bit t: thread t held by a wait, a mutex or an undefined opcode (not the one-cycle lag, the
 * sync slot or a busy unit, which pass by themselves); bit 3+c: core c blocked on a full FIFO
 * or in tensix_sync. "Until the next stall" stops when a bit comes on. */
static uint32_t stall_sig(const run_t *r) {
    uint32_t sig = 0;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        cp_thread_state_t s;
        cp_thread_state(r->tile->cp, t, &s);
        if (s.held && s.hold != CP_HOLD_WAIT_LAG && s.hold != CP_HOLD_SYNC_SLOT && s.hold != CP_HOLD_UNIT)
            sig |= 1u << t;
    }
    for (int c = 0; c < TILE_NCORES; c++) {
        int th;
        if (diag_core_wait(r->tile, c, &th) != CORE_WAIT_NONE) sig |= 1u << (CP_THREADS + c);
    }
    return sig;
}

static void describe_stall(ui_t *u, uint32_t new_bits) {
    size_t n = (size_t)snprintf(u->note, sizeof u->note, "stall at cycle %llu:", (unsigned long long)u->r->tile->cycle);
    for (unsigned t = 0; t < CP_THREADS; t++)
        if ((new_bits >> t) & 1) {
            cp_thread_state_t s;
            cp_thread_state(u->r->tile->cp, t, &s);
            n += (size_t)snprintf(u->note + n, n < sizeof u->note ? sizeof u->note - n : 0, " T%u held (%s)", t,
                                  cp_hold_name(s.hold));
        }
    for (int c = 0; c < TILE_NCORES; c++)
        if ((new_bits >> (CP_THREADS + c)) & 1) {
            int th;
            const char *w = diag_core_wait_name(diag_core_wait(u->r->tile, c, &th));
            n += (size_t)snprintf(u->note + n, n < sizeof u->note ? sizeof u->note - n : 0, " %s %s T%d",
                                  tile_core_names[c], w, th);
        }
}

/* ---- drawing and saving ----------------------------------------------------------------------- */

static void render(ui_t *u) {
    ui_snap_take(&u->snap, u->r, &u->strip);
    switch (u->mode) {
    case M_RUN: snprintf(u->mode_text, sizeof u->mode_text, "running"); break;
    case M_PAUSE: snprintf(u->mode_text, sizeof u->mode_text, "paused"); break;
    case M_UNTIL_STALL: snprintf(u->mode_text, sizeof u->mode_text, "running until the next stall"); break;
    case M_UNTIL_SEM:
        snprintf(u->mode_text, sizeof u->mode_text, "running until sem %d changes", u->ctl.sel_sem);
        break;
    }
    u->ctl.mode = u->mode_text;
    u->ctl.note = u->note;
    ui_draw(u->canvas, u->font, &u->snap, &u->ctl);
    if (u->win) {
        SDL_Surface *ws = SDL_GetWindowSurface(u->win);
        if (ws) {
            SDL_BlitSurface(u->canvas, NULL, ws, NULL);
            SDL_UpdateWindowSurface(u->win);
        }
    }
}

static bool ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcasecmp(s + a - b, suf);
}

/* The headless screenshot: the image and, beside it, the snapshot it shows. */
static void save_shot(ui_t *u) {
    render(u);
    int ok = ends_with(u->o.shot, ".png") ? IMG_SavePNG(u->canvas, u->o.shot) : SDL_SaveBMP(u->canvas, u->o.shot);
    if (ok != 0) {
        fprintf(stderr, "ttemu: cannot write --ui-screenshot %s: %s\n", u->o.shot, SDL_GetError());
        u->failed = true;
        return;
    }
    char def[4096];
    const char *jp = u->o.snap_json;
    if (!jp) {
        snprintf(def, sizeof def, "%s.json", u->o.shot);
        jp = def;
    }
    cJSON *j = ui_snap_json(&u->snap);
    char *txt = cJSON_Print(j);
    cJSON_Delete(j);
    FILE *f = txt ? fopen(jp, "w") : NULL;
    bool wok = f && fputs(txt, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0) wok = false;
    free(txt);
    if (!wok) {
        fprintf(stderr, "ttemu: cannot write the panel snapshot %s\n", jp);
        u->failed = true;
    }
}

/* ---- controls --------------------------------------------------------------------------------- */

static void key(ui_t *u, SDL_Keycode k) {
    switch (k) {
    case SDLK_SPACE:
    case SDLK_p: u->mode = u->mode == M_PAUSE ? M_RUN : M_PAUSE; break;
    case SDLK_s:
    case SDLK_RIGHT:
        u->mode = M_PAUSE;
        u->step_pending = 1;
        break;
    case SDLK_n:
        u->mode = M_PAUSE;
        u->step_pending = u->ctl.step_n;
        break;
    case SDLK_COMMA:
        if (u->ctl.step_n > 1) u->ctl.step_n /= 2;
        break;
    case SDLK_PERIOD:
        if (u->ctl.step_n < 100000000) u->ctl.step_n *= 2;
        break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
        if (u->ctl.speed > 0) u->ctl.speed--;
        break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
        if (u->ctl.speed < UI_SPEEDS - 1) u->ctl.speed++;
        break;
    case SDLK_w:
        u->mode = M_UNTIL_STALL;
        u->stall_sig = stall_sig(u->r);
        snprintf(u->note, sizeof u->note, "running until the next stall from cycle %llu",
                 (unsigned long long)u->r->tile->cycle);
        break;
    case SDLK_c:
        u->mode = M_UNTIL_SEM;
        u->sem_value = cp_sem_read(u->r->tile->cp, (unsigned)u->ctl.sel_sem);
        u->sem_max = cp_sem_max(u->r->tile->cp, (unsigned)u->ctl.sel_sem);
        snprintf(u->note, sizeof u->note, "running until semaphore %d changes from Value %u Max %u", u->ctl.sel_sem,
                 u->sem_value, u->sem_max);
        break;
    case SDLK_q:
    case SDLK_ESCAPE: u->quit = true; break;
    default:
        if (k >= SDLK_0 && k <= SDLK_7) u->ctl.sel_sem = (int)(k - SDLK_0);
        break;
    }
}

static void click(ui_t *u, int x, int y) {
    SDL_Point pt = {x, y};
    for (int i = 0; i < u->ctl.nbuttons; i++)
        if (SDL_PointInRect(&pt, &u->ctl.button[i])) {
            key(u, u->ctl.button_key[i]);
            return;
        }
    if (SDL_PointInRect(&pt, &u->ctl.slider)) {
        int k = (x - u->ctl.slider.x) / 30;
        u->ctl.speed = k < 0 ? 0 : k >= UI_SPEEDS ? UI_SPEEDS - 1 : k;
    }
}

static void handle(ui_t *u, const SDL_Event *e) {
    switch (e->type) {
    case SDL_QUIT: u->quit = true; break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE) u->quit = true;
        break;
    case SDL_KEYDOWN: key(u, e->key.keysym.sym); break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) click(u, e->button.x, e->button.y);
        break;
    default: break;
    }
}

static void poll(ui_t *u) {
    SDL_Event e;
    while (SDL_PollEvent(&e))
        handle(u, &e);
    if (u->headless_video && u->mode == M_PAUSE) u->mode = M_RUN; /* nobody to unpause it */
}

/* End the run because the panel was closed: exit 2 "stopped" (docs/cli.md). */
static uint64_t stop(ui_t *u, const char *why) {
    run_t *r = u->r;
    r->exit.code = EXIT_MAX_CYCLES;
    r->exit.reason = "stopped";
    snprintf(r->exit.message, sizeof r->exit.message, "stopped at cycle %llu: %s", (unsigned long long)r->tile->cycle,
             why);
    return 0;
}

/* ---- the observer ----------------------------------------------------------------------------- */

static uint64_t shot_after(ui_t *u) {
    uint64_t now = u->r->tile->cycle;
    ui_strip_sample(&u->strip, u->r);
    if (!u->o.at_given) return UI_SHOT_PERIOD;
    if (now >= u->o.at) {
        u->at_done = true;
        return stop(u, "--ui-at");
    }
    /* Jump to UI_STRIP cycles before the target, then sample every cycle: the strip is exact. */
    uint64_t left = u->o.at - now;
    return left > UI_STRIP ? left - UI_STRIP : 1;
}

/* Cycles to run before the next frame in the current mode (never past --ui-at before it). */
static uint64_t batch(ui_t *u) {
    uint64_t n = u->mode == M_RUN ? ui_speed_cycles(u->ctl.speed) : 1;
    uint64_t now = u->r->tile->cycle;
    if (u->o.at_given && !u->at_done && u->o.at > now && u->o.at - now < n) n = u->o.at - now;
    return n;
}

/* Run until frame_at: a jump to UI_STRIP cycles before it, then one cycle at a time, so the
 * strip holds every cycle of the last UI_STRIP before each frame. */
static uint64_t run_to_frame(ui_t *u) {
    uint64_t left = u->frame_at - u->r->tile->cycle;
    return left > UI_STRIP ? left - UI_STRIP : 1;
}

static uint64_t live_after(ui_t *u) {
    run_t *r = u->r;
    uint64_t now = r->tile->cycle;
    ui_strip_sample(&u->strip, r);
    if (u->o.at_given && !u->at_done && now >= u->o.at) {
        u->at_done = true;
        u->mode = M_PAUSE;
        u->frame_at = now;
        snprintf(u->note, sizeof u->note, "paused at --ui-at %llu", (unsigned long long)u->o.at);
    }
    if (u->mode == M_UNTIL_STALL) {
        uint32_t sig = stall_sig(r), fresh = sig & ~u->stall_sig;
        u->stall_sig = sig;
        if (fresh) {
            describe_stall(u, fresh);
            u->mode = M_PAUSE;
            u->frame_at = now;
        }
    } else if (u->mode == M_UNTIL_SEM) {
        unsigned i = (unsigned)u->ctl.sel_sem, v = cp_sem_read(r->tile->cp, i), m = cp_sem_max(r->tile->cp, i);
        if (v != u->sem_value || m != u->sem_max) {
            snprintf(u->note, sizeof u->note, "cycle %llu: semaphore %u changed: Value %u -> %u, Max %u -> %u",
                     (unsigned long long)now, i, u->sem_value, v, u->sem_max, m);
            u->mode = M_PAUSE;
            u->frame_at = now;
        }
    }
    if (now < u->frame_at) return (u->mode == M_UNTIL_STALL || u->mode == M_UNTIL_SEM) ? 1 : run_to_frame(u);
    for (;;) {
        poll(u);
        if (u->quit) return stop(u, "the panel was closed");
        render(u);
        if (u->step_pending) {
            uint64_t n = u->step_pending;
            u->step_pending = 0;
            snprintf(u->note, sizeof u->note, "stepped %llu cycle%s from %llu", (unsigned long long)n,
                     n == 1 ? "" : "s", (unsigned long long)now);
            u->frame_at = now + n;
            return run_to_frame(u);
        }
        if (u->mode != M_PAUSE) {
            if (!u->headless_video) {
                uint32_t t = SDL_GetTicks(), dt = t - u->last_frame;
                if (u->mode == M_RUN && dt < UI_FRAME_MS) SDL_Delay(UI_FRAME_MS - dt);
                u->last_frame = SDL_GetTicks();
            }
            if (u->mode == M_RUN) {
                u->frame_at = now + batch(u);
                return run_to_frame(u);
            }
            u->frame_at = now + UI_UNTIL_FRAME; /* "until" modes: look at events now and then */
            return 1;
        }
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, 100)) handle(u, &e);
        if (u->quit) return stop(u, "the panel was closed");
    }
}

static uint64_t ui_after(run_t *r, void *ctx) {
    ui_t *u = ctx;
    (void)r;
    return u->o.shot ? shot_after(u) : live_after(u);
}

static void ui_end(run_t *r, void *ctx) {
    ui_t *u = ctx;
    ui_strip_sample(&u->strip, r);
    if (u->o.shot) {
        if (u->o.at_given && !u->at_done)
            fprintf(stderr, "ttemu: the run ended at cycle %llu, before --ui-at %llu: the screenshot shows its end\n",
                    (unsigned long long)r->tile->cycle, (unsigned long long)u->o.at);
        save_shot(u);
        return;
    }
    /* The window shows the final state until it is closed (at once when headless or quit). */
    u->mode = M_PAUSE;
    snprintf(u->note, sizeof u->note, "the run is over: close the window (Q) for the report");
    while (!u->quit && !u->headless_video) {
        render(u);
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, 200)) handle(u, &e);
        u->step_pending = 0;
    }
    render(u);
}

/* ---- life cycle ------------------------------------------------------------------------------- */

ui_t *ui_attach(run_t *r, const ui_opts_t *o, char *err, size_t errlen) {
    if (o->shot && !ends_with(o->shot, ".bmp") && !ends_with(o->shot, ".png")) {
        snprintf(err, errlen, "--ui-screenshot %s: the file name must end in .bmp or .png", o->shot);
        return NULL;
    }
    ui_t *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    u->r = r;
    u->o = *o;
    u->ctl = (ui_ctl_t){.speed = 3, .step_n = 100, .sel_sem = o->shot ? -1 : 1, .live = !o->shot};
    ui_strip_init(&u->strip);
    /* The screenshot needs no video subsystem: it draws onto a surface in memory. */
    if (SDL_Init(o->shot ? 0 : SDL_INIT_VIDEO) != 0) {
        snprintf(err, errlen, "--ui: cannot open the panel (SDL: %s); set SDL_VIDEODRIVER=dummy to run it headless",
                 SDL_GetError());
        free(u);
        return NULL;
    }
    u->video = !o->shot;
    if (TTF_Init() != 0 || !(u->font = TTF_OpenFont(UI_FONT, UI_FONT_PT))) {
        snprintf(err, errlen, "the panel's font %s cannot be opened (%s): install fonts-dejavu-core (scripts/deps.sh)",
                 UI_FONT, TTF_GetError());
        ui_free(u);
        return NULL;
    }
    u->canvas = SDL_CreateRGBSurfaceWithFormat(0, UI_W, UI_H, 32, SDL_PIXELFORMAT_RGB888);
    if (!u->canvas) {
        snprintf(err, errlen, "the panel: %s", SDL_GetError());
        ui_free(u);
        return NULL;
    }
    if (u->video) {
        const char *drv = SDL_GetCurrentVideoDriver();
        u->headless_video = drv && (!strcmp(drv, "dummy") || !strcmp(drv, "offscreen"));
        if (u->headless_video && !getenv("SDL_VIDEODRIVER")) /* SDL fell back to it: no display */
            fprintf(stderr, "ttemu: --ui: no display (SDL chose the '%s' video driver): the panel runs headless\n",
                    drv);
        /* Nobody sees a headless window: SDL draws it in memory, not through OpenGL (which the
         * offscreen driver would load: Mesa's llvmpipe, ~60 ms to start, and leaks that
         * LeakSanitizer finds in the sanitizer pass). SDL_FRAMEBUFFER_ACCELERATION overrides. */
        if (u->headless_video) SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
        u->win = SDL_CreateWindow("ttemu panel", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, UI_W, UI_H, 0);
        if (!u->win) {
            snprintf(err, errlen, "--ui: cannot open a window (SDL: %s)", SDL_GetError());
            ui_free(u);
            return NULL;
        }
        u->last_frame = SDL_GetTicks();
    }
    if (!run_observe(r, ui_after, ui_end, u)) {
        snprintf(err, errlen, "the panel: too many run observers");
        ui_free(u);
        return NULL;
    }
    return u;
}

bool ui_ok(const ui_t *u) { return !u->failed; }

void ui_free(ui_t *u) {
    if (!u) return;
    if (u->canvas) SDL_FreeSurface(u->canvas);
    if (u->font) TTF_CloseFont(u->font);
    if (TTF_WasInit()) TTF_Quit();
    if (u->win) SDL_DestroyWindow(u->win);
    SDL_Quit();
    free(u);
}
