/* ui/panel_draw.c — the panel's picture of one snapshot (docs/ui.md has a screenshot).
 *
 * Left: the Sync Unit (8 semaphores as Value/Max bars, 4 mutexes) and the five cores. Right: the
 * three Tensix threads (held instruction, latched wait, FIFOs, MOP/replay) and, once the run has
 * a stall diagnosis, its wait-for chains. Below: the strip of recent thread states, then the
 * controls. Everything is SDL_FillRect and SDL2_ttf text blitted onto one surface, so a window
 * and a headless screenshot show the same pixels. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/panel_draw.h"

typedef struct {
    SDL_Surface *dst;
    TTF_Font *font;
    int cw, lh; /* character width and line height of the (monospace) font */
} pen_t;

static const SDL_Color C_TEXT = {220, 222, 228, 255}, C_DIM = {140, 144, 156, 255}, C_HEAD = {120, 190, 255, 255},
                       C_WARN = {255, 120, 100, 255}, C_OK = {120, 220, 130, 255};

/* Strip colours per ui_tstate_t, also the legend. */
static const SDL_Color state_col[UI_ST_COUNT] = {
    {58, 60, 68, 255},   /* idle */
    {70, 110, 170, 255}, /* busy */
    {80, 190, 90, 255},  /* issuing */
    {230, 180, 50, 255}, /* held by a condition */
    {225, 70, 60, 255},  /* held by a semaphore */
    {175, 95, 215, 255}, /* held by a mutex */
};

uint64_t ui_speed_cycles(int speed) {
    uint64_t n = 1;
    for (int i = 0; i < speed; i++)
        n *= 10;
    return n;
}

static void fill(pen_t *p, int x, int y, int w, int h, SDL_Color c) {
    SDL_Rect r = {x, y, w, h};
    SDL_FillRect(p->dst, &r, SDL_MapRGB(p->dst->format, c.r, c.g, c.b));
}

static void frame(pen_t *p, SDL_Rect r, SDL_Color c) {
    fill(p, r.x, r.y, r.w, 1, c);
    fill(p, r.x, r.y + r.h - 1, r.w, 1, c);
    fill(p, r.x, r.y, 1, r.h, c);
    fill(p, r.x + r.w - 1, r.y, 1, r.h, c);
}

/* Text at (x, y), cut to maxw pixels (0: no limit); returns the x after it. */
static int text(pen_t *p, int x, int y, int maxw, SDL_Color c, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int text(pen_t *p, int x, int y, int maxw, SDL_Color c, const char *fmt, ...) {
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (maxw > 0 && p->cw > 0) {
        size_t max = (size_t)(maxw / p->cw);
        if (strlen(b) > max && max < sizeof b) b[max] = 0;
    }
    if (!b[0]) return x;
    SDL_Surface *s = TTF_RenderUTF8_Blended(p->font, b, c);
    if (!s) return x;
    SDL_Rect at = {x, y, s->w, s->h};
    SDL_BlitSurface(s, NULL, p->dst, &at);
    int w = s->w;
    SDL_FreeSurface(s);
    return x + w;
}

static const char *thread_names[CP_THREADS] = {"T0", "T1", "T2"};

/* "T1 T2" for a thread mask. */
static void mask_names(uint8_t m, char *b, size_t len) {
    size_t o = 0;
    b[0] = 0;
    for (unsigned t = 0; t < CP_THREADS; t++)
        if ((m >> t) & 1) o += (size_t)snprintf(b + o, len > o ? len - o : 0, "%s%s", o ? " " : "", thread_names[t]);
}

static int draw_sems(pen_t *p, const ui_snap_t *s, int x, int y, int sel) {
    text(p, x, y, 0, C_HEAD, "Semaphores (Sync Unit)          Value / Max");
    y += p->lh + 4;
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        const ui_sem_t *m = &s->sem[i];
        int rowh = p->lh + 5;
        if (m->waiters) fill(p, x - 4, y - 2, 620, rowh, (SDL_Color){90, 36, 36, 255});
        if ((int)i == sel) frame(p, (SDL_Rect){x - 4, y - 2, 620, rowh}, C_HEAD);
        text(p, x, y, 0, C_TEXT, "%u %s", i, m->name[0] ? m->name : "(unnamed)");
        /* The bar spans 0..15 (a Value saturates at 15, SyncUnit.md); Max is a white tick. */
        int bx = x + 24 * p->cw, bw = 16 * 14, bh = p->lh - 4;
        fill(p, bx, y + 2, bw, bh, (SDL_Color){50, 52, 60, 255});
        fill(p, bx, y + 2, (int)(m->value > 15 ? 15 : m->value) * 14, bh,
             m->waiters ? state_col[UI_ST_SEM] : (SDL_Color){90, 160, 230, 255});
        fill(p, bx + (int)(m->max > 15 ? 15 : m->max) * 14, y, 2, bh + 4, (SDL_Color){250, 250, 250, 255});
        int tx = text(p, bx + bw + 10, y, 0, C_TEXT, "%2u / %-2u", m->value, m->max);
        if (m->waiters) {
            char w[16];
            mask_names(m->waiters, w, sizeof w);
            text(p, tx + 12, y, 0, C_WARN, "waiting: %s", w);
        }
        y += rowh;
    }
    return y + 8;
}

static int draw_mutexes(pen_t *p, const ui_snap_t *s, int x, int y) {
    text(p, x, y, 0, C_HEAD, "Mutexes");
    y += p->lh + 4;
    for (unsigned m = 0; m < UI_MUTEXES; m++) {
        const ui_mutex_t *u = &s->mutex[m];
        int tx = text(p, x, y, 0, C_TEXT, "mutex %u %-8s owner ", u->index, u->name);
        if (u->holder >= 0)
            tx = text(p, tx, y, 0, C_OK, "T%d since cycle %llu", u->holder, (unsigned long long)u->since);
        else
            tx = text(p, tx, y, 0, C_DIM, "free");
        if (u->waiters) {
            char w[16];
            mask_names(u->waiters, w, sizeof w);
            text(p, tx + 16, y, 0, C_WARN, "waiting: %s", w);
        }
        y += p->lh + 3;
    }
    return y + 8;
}

static int draw_cores(pen_t *p, const ui_snap_t *s, int x, int y) {
    text(p, x, y, 0, C_HEAD, "Cores    state    pc          instret      symbol / blocked");
    y += p->lh + 4;
    for (int c = 0; c < TILE_NCORES; c++) {
        const ui_core_t *u = &s->core[c];
        if (!u->started) {
            text(p, x, y, 0, C_DIM, "%-8s not started", u->name);
        } else {
            SDL_Color sc = !strcmp(u->state, "running") ? C_OK : !strcmp(u->state, "halted") ? C_DIM : C_WARN;
            text(p, x, y, 0, C_TEXT, "%-8s", u->name);
            text(p, x + 9 * p->cw, y, 0, sc, "%s", u->state);
            int tx = text(p, x + 18 * p->cw, y, 0, C_TEXT, "0x%08x  %10llu   ", u->pc, (unsigned long long)u->instret);
            if (u->blocked[0])
                text(p, tx, y, 600 - (tx - x), C_WARN, "%s %s  %s", u->blocked, u->waits_on, u->sym);
            else
                text(p, tx, y, 600 - (tx - x), C_TEXT, "%s", u->sym);
        }
        y += p->lh + 3;
    }
    return y + 8;
}

/* A FIFO fill gauge: n of CP_FIFO_DEPTH. */
static int gauge(pen_t *p, int x, int y, const char *label, unsigned n) {
    x = text(p, x, y, 0, C_DIM, "%s", label) + 4;
    fill(p, x, y + 3, 64, p->lh - 6, (SDL_Color){50, 52, 60, 255});
    fill(p, x, y + 3, (int)(n > CP_FIFO_DEPTH ? CP_FIFO_DEPTH : n) * 2, p->lh - 6, (SDL_Color){90, 160, 230, 255});
    return text(p, x + 68, y, 0, C_TEXT, "%2u", n) + 12;
}

static int draw_threads(pen_t *p, const ui_snap_t *s, int x, int y) {
    const int w = UI_W - x - 16;
    text(p, x, y, 0, C_HEAD, "Tensix threads (Wait Gates)");
    y += p->lh + 4;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        const ui_thread_t *u = &s->th[t];
        fill(p, x - 4, y - 2, w + 4, 5 * (p->lh + 2) + 6, (SDL_Color){34, 36, 42, 255});
        fill(p, x - 4, y - 2, 4, 5 * (p->lh + 2) + 6, state_col[u->state]);
        int tx = text(p, x + 4, y, 0, C_TEXT, "T%u (TRISC%u) ", t, t);
        tx = text(p, tx, y, 0, u->state == UI_ST_IDLE ? C_DIM : state_col[u->state], "%s", ui_tstate_name(u->state));
        text(p, tx + 16, y, 0, C_DIM, "pushed %llu  issued %llu  stalled %llu", (unsigned long long)u->pushed,
             (unsigned long long)u->issued, (unsigned long long)u->stall_total);
        y += p->lh + 2;
        if (u->held) {
            tx = text(p, x + 4, y, 0, C_DIM, "gate holds ");
            text(p, tx, y, w - (tx - x), C_WARN, "%s", u->held_dis);
            y += p->lh + 2;
            text(p, x + 4, y, w, C_WARN, "  %s (%s)", u->why, u->hold);
        } else {
            text(p, x + 4, y, 0, C_DIM, "gate: nothing held");
            y += p->lh + 2; /* the same height either way: nothing jumps while stepping */
        }
        y += p->lh + 2;
        if (u->wait_active) {
            tx = text(p, x + 4, y, 0, C_DIM, "latched ");
            text(p, tx, y, w - (tx - x), C_TEXT, "%s  since %llu", u->wait_dis, (unsigned long long)u->wait_since);
        } else {
            text(p, x + 4, y, 0, C_DIM, "latched: none");
        }
        y += p->lh + 2;
        tx = gauge(p, x + 4, y, "FIFO#1", u->fifo1);
        tx = gauge(p, tx, y, "#2", u->fifo2);
        tx = gauge(p, tx, y, "#3", u->fifo3);
        tx = text(p, tx, y, 0, u->mop_busy ? C_OK : C_DIM, "MOP %s", u->mop_busy ? "busy" : "idle");
        if (u->replay_busy)
            text(p, tx + 12, y, 0, C_OK, "replay %u left", u->replay_left);
        else
            text(p, tx + 12, y, 0, C_DIM, "replay idle");
        y += p->lh + 12;
    }
    return y - 4;
}

static int draw_chains(pen_t *p, const ui_snap_t *s, int x, int y) {
    if (!s->nchains) return y;
    text(p, x, y, 0, C_HEAD, "Stall diagnosis: wait-for");
    y += p->lh + 2;
    for (int i = 0; i < s->nchains; i++) {
        text(p, x, y, UI_W - x - 16, C_WARN, "%s", s->chains[i]);
        y += p->lh + 1;
    }
    return y + 6;
}

/* Per NIU: packets in flight by kind, requests issued. */
static int draw_noc(pen_t *p, const ui_snap_t *s, int x, int y) {
    text(p, x, y, 0, C_HEAD, "NoC: packets in flight");
    y += p->lh + 2;
    for (int n = 0; n < NOC_NIUS; n++) {
        const ui_noc_t *u = &s->noc[n];
        bool busy = u->reads || u->writes || u->atomics;
        text(p, x, y, 0, busy ? C_OK : C_DIM, "NOC%d  reads %u  writes %u  atomics %u   (%llu requests issued)", n,
             u->reads, u->writes, u->atomics, (unsigned long long)u->requests);
        y += p->lh + 1;
    }
    return y + 6;
}

static int draw_strip(pen_t *p, const ui_snap_t *s, int y) {
    const int x = 56, w = UI_W - x - 16, rh = 20;
    if (s->strip_n)
        text(p, 16, y, 0, C_HEAD, "Thread states, %u samples %s, cycles %llu..%llu", s->strip_n,
             s->strip_exact ? "(one per cycle)" : "(sampled between batches)", (unsigned long long)s->strip_cycle[0],
             (unsigned long long)s->strip_cycle[s->strip_n - 1]);
    else
        text(p, 16, y, 0, C_HEAD, "Thread states (no samples yet)");
    /* legend */
    int lx = UI_W - 16 - 6 * 110;
    for (int k = 0; k < UI_ST_COUNT; k++) {
        fill(p, lx + k * 110, y + 3, 12, p->lh - 6, state_col[k]);
        text(p, lx + k * 110 + 16, y, 0, C_DIM, "%s", ui_tstate_name((ui_tstate_t)k));
    }
    y += p->lh + 4;
    for (unsigned t = 0; t < CP_THREADS; t++) {
        text(p, 16, y + 2, 0, C_TEXT, "%s", thread_names[t]);
        fill(p, x, y, w, rh, (SDL_Color){28, 30, 34, 255});
        /* The newest sample at the right edge; older ones scroll left. */
        unsigned n = s->strip_n;
        for (unsigned k = 0; k < n; k++) {
            int x0 = x + (int)((uint64_t)k * (unsigned)w / UI_STRIP) + w - (int)((uint64_t)n * (unsigned)w / UI_STRIP);
            int x1 =
                x + (int)((uint64_t)(k + 1) * (unsigned)w / UI_STRIP) + w - (int)((uint64_t)n * (unsigned)w / UI_STRIP);
            if (x1 <= x0) x1 = x0 + 1;
            fill(p, x0, y, x1 - x0, rh, state_col[s->strip[t][k] % UI_ST_COUNT]);
        }
        y += rh + 4;
    }
    return y + 6;
}

static void draw_controls(pen_t *p, ui_ctl_t *ctl, int y) {
    static const struct {
        const char *label;
        SDL_Keycode key;
    } btn[] = {{"Space run/pause", SDLK_SPACE}, {"S step 1", SDLK_s}, {"N step N", SDLK_n}, {"W until stall", SDLK_w},
               {"C until sem changes", SDLK_c}, {"Q quit", SDLK_q}};
    int x = 16;
    ctl->nbuttons = 0;
    for (unsigned i = 0; i < sizeof btn / sizeof btn[0] && ctl->nbuttons < UI_MAX_BUTTONS; i++) {
        int bw = (int)strlen(btn[i].label) * p->cw + 16;
        SDL_Rect r = {x, y, bw, p->lh + 8};
        fill(p, r.x, r.y, r.w, r.h, (SDL_Color){48, 54, 66, 255});
        frame(p, r, (SDL_Color){90, 100, 120, 255});
        text(p, x + 8, y + 4, 0, C_TEXT, "%s", btn[i].label);
        ctl->button[ctl->nbuttons] = r;
        ctl->button_key[ctl->nbuttons++] = btn[i].key;
        x += bw + 8;
    }
    /* speed slider */
    x += 16;
    int tx = text(p, x, y + 4, 0, C_TEXT, "speed");
    SDL_Rect tr = {tx + 10, y + 2, 7 * 30, p->lh + 4};
    fill(p, tr.x, tr.y + tr.h / 2 - 1, tr.w, 3, (SDL_Color){90, 100, 120, 255});
    for (int k = 0; k < UI_SPEEDS; k++)
        fill(p, tr.x + k * 30 + 14, tr.y + 3, 2, tr.h - 6, (SDL_Color){90, 100, 120, 255});
    fill(p, tr.x + ctl->speed * 30 + 9, tr.y, 12, tr.h, C_HEAD);
    ctl->slider = tr;
    text(p, tr.x + tr.w + 10, y + 4, 0, C_TEXT, "%llu cycles/frame", (unsigned long long)ui_speed_cycles(ctl->speed));
    y += p->lh + 14;
    text(p, 16, y, 0, C_DIM,
         "Keys: Space run/pause  S step 1  N step N  , . halve/double N  W run until the next stall  0-7 choose a "
         "semaphore  C run until it changes");
    y += p->lh + 2;
    text(p, 16, y, 0, C_DIM, "      - + (or click the slider) speed  Q/Esc quit (ends the run: exit 2 \"stopped\")");
}

void ui_draw(SDL_Surface *dst, TTF_Font *font, const ui_snap_t *s, ui_ctl_t *ctl) {
    pen_t p = {.dst = dst, .font = font, .lh = TTF_FontLineSkip(font)};
    TTF_SizeUTF8(font, "M", &p.cw, NULL);
    fill(&p, 0, 0, dst->w, dst->h, (SDL_Color){22, 24, 28, 255});

    /* title */
    int tx = text(&p, 16, 8, 0, C_TEXT, "ttemu panel   cycle %llu   ", (unsigned long long)s->cycle);
    if (s->exit_reason)
        text(&p, tx, 8, UI_W - tx - 16, C_WARN, "run ended: %s (%s)", s->exit_reason, s->exit_message);
    else if (ctl)
        text(&p, tx, 8, 0, C_OK, "%s   step N = %llu   semaphore %d selected", ctl->mode,
             (unsigned long long)ctl->step_n, ctl->sel_sem);
    if (ctl && ctl->note && ctl->note[0]) text(&p, 16, 8 + p.lh + 2, UI_W - 32, C_HEAD, "%s", ctl->note);

    int top = 8 + 2 * (p.lh + 2) + 6;
    int y = draw_sems(&p, s, 20, top, ctl ? ctl->sel_sem : -1);
    y = draw_mutexes(&p, s, 20, y);
    int yl = draw_cores(&p, s, 20, y);
    int yr = draw_threads(&p, s, 660, top);
    yr = draw_noc(&p, s, 660, yr);
    yr = draw_chains(&p, s, 660, yr);
    y = draw_strip(&p, s, (yl > yr ? yl : yr) + 4);
    if (ctl && ctl->live) draw_controls(&p, ctl, y + 4);
}
