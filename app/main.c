/* app/main.c — the `ttemu` command line (docs/cli.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/outputs.h"
#include "app/plugin.h"
#include "app/policy.h"
#include "app/regress.h"
#include "app/report.h"
#include "app/runcfg.h"
#include "debug/diag.h"
#include "debug/gdb.h"
#include "debug/trace.h"
#include "loader/config.h"
#include "loader/hostio.h"
#include "loader/ttmetal.h"
#include "run/run.h"

#define TTEMU_VERSION "0.1.0"

static const char usage[] =
    "usage: ttemu run [--config RUN.json] [--brisc F] [--ncrisc F] [--trisc0 F] [--trisc1 F] [--trisc2 F]\n"
    "                 [--max-cycles N] [--deadlock-window N] [--gate-policy exact|whole-thread] [--report FILE]\n"
    "                 [--peek ADDR[:WORDS]]... [--quiet]\n"
    "                 [--input NAME=FILE]... [--output NAME=FILE]... [--expect NAME=FILE[:atol=A][:rtol=R]]...\n"
    "                 [--trace FILE.json] [--trace-vcd FILE.vcd]\n"
    "                 [--trace-window N | --trace-start CYCLE --trace-stop CYCLE]\n"
    "                 [--ui] [--ui-screenshot FILE.bmp|.png [--ui-snapshot FILE.json]] [--ui-at CYCLE]\n"
    "                 [--gdb [127.0.0.1:]PORT [--gdb-wait]]\n"
    "       ttemu regress DIR|LIST|CONFIG.json... [--jobs N] [--update] [--junit FILE] [--golden DIR]\n"
    "                     [--reports DIR] [--timeout SECONDS]\n"
    "       ttemu compare-policies RUN.json [--max-cycles N] [--deadlock-window N] [--json FILE]\n"
    "                              [--reports DIR] [--quiet]\n"
    "       ttemu --version | --help\n"
    "Runs RV32 ELF images on one Blackhole Tensix tile. Each core given an ELF leaves reset at\n"
    "its entry point; a run config (docs/run-config.md) can instead boot tt-metal firmware and\n"
    "launch kernels. Exit: 0 all started cores halted, 1 deadlock, 2 --max-cycles reached,\n"
    "3 guest fault, 4 bad command line or input, 5 a tensor differs from its expectation,\n"
    "6 something ttemu does not model yet. See docs/cli.md; named tensors in and out:\n"
    "docs/tensors.md.\n"
    "--ui opens the live panel (docs/ui.md); closing it ends the run (exit 2, \"stopped\").\n"
    "--gdb serves gdb's remote protocol on 127.0.0.1:PORT (docs/gdb.md).\n"
    "`regress` runs many run configs in parallel and compares each report with its golden\n"
    "(docs/regression.md). `compare-policies` runs one under each gate policy and compares them\n"
    "(docs/gate-policies.md).\n";

static int bad_input(const char *fmt, const char *arg) {
    fprintf(stderr, "ttemu: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(try ttemu --help)\n");
    return EXIT_BAD_INPUT;
}

_Static_assert(RUN_MAX_PEEKS == 64, "the --peek limit message says 64");

static bool parse_u64(const char *s, uint64_t *out) { return run_parse_uint(s, UINT64_MAX, out); }

/* "launches[l].kernels.core" into name (64 bytes; l < CFG_MAX_LAUNCHES, core at most 6 letters):
 * copied, not formatted (snprintf's ~1,000 host instructions, for every kernel of a run). */
static const char *kernel_name(char *name, int l, const char *core) {
    _Static_assert(CFG_MAX_LAUNCHES <= 100, "two digits at most");
    char *d = name;
    memcpy(d, "launches[", 9), d += 9;
    if (l >= 10) *d++ = (char)('0' + l / 10);
    *d++ = (char)('0' + l % 10);
    memcpy(d, "].kernels.", 10), d += 10;
    strcpy(d, core);
    return name;
}

/* No output on another output or on an input (app/outputs.h): checked before anything is read
 * or written. Outputs: the report, the traces, the panel's files, tensor outputs and saved host
 * reads; inputs: the config, the images, the kernels, tensor inputs and expectations, host write
 * files. */
static int check_outputs(const run_opts_t *o, const trace_opts_t *tro, const ui_opts_t *ui, const char *config,
                         const cfg_t *cfg) {
    static const char *const what[TILE_NCORES] = {"brisc", "ncrisc", "trisc0", "trisc1", "trisc2"};
    char snap[4096] = "";
    if (ui->shot && !ui->snap_json) snprintf(snap, sizeof snap, "%s.json", ui->shot); /* the panel's default */
    size_t cap = 8 + (size_t)TILE_NCORES * (2 + (size_t)cfg->nlaunches) + (size_t)cfg->nhost + (size_t)cfg->ntio;
    outputs_file_t *outs = calloc(cap, sizeof *outs), *ins = calloc(cap, sizeof *ins);
    char(*names)[64] = calloc(2 * cap, sizeof *names);
    int no = 0, ni = 0, nn = 0, rc = -1;
    char err[8400];
    if (!outs || !ins || !names) {
        fprintf(stderr, "ttemu: out of memory\n");
        goto out;
    }
#define NAME(...) (snprintf(names[nn], sizeof names[0], __VA_ARGS__), names[nn++])
    outs[no++] = (outputs_file_t){"--report", o->report_path};
    outs[no++] = (outputs_file_t){"--trace", tro->json_path};
    outs[no++] = (outputs_file_t){"--trace-vcd", tro->vcd_path};
    outs[no++] = (outputs_file_t){"--ui-screenshot", ui->shot};
    outs[no++] = (outputs_file_t){"--ui-snapshot", ui->snap_json};
    outs[no++] = (outputs_file_t){"--ui-screenshot's snapshot", *snap ? snap : NULL};
    ins[ni++] = (outputs_file_t){"--config", config};
    for (int c = 0; c < TILE_NCORES; c++) {
        ins[ni++] = (outputs_file_t){NAME(o->elf[c] ? "--%s" : "cores.%s", what[c]), cfg->cores[c]};
        ins[ni++] = (outputs_file_t){NAME("firmware.%s", what[c]), cfg->firmware[c]};
        for (int l = 0; l < cfg->nlaunches; l++)
            if (cfg->launches[l].kernel[c]) /* (a core the launch leaves empty: no path to check, no name made) */
                ins[ni++] = (outputs_file_t){kernel_name(names[nn++], l, what[c]), cfg->launches[l].kernel[c]};
    }
    for (int i = 0; i < cfg->nhost; i++) {
        const cfg_host_op_t *op = &cfg->host[i];
        if (!op->file) continue;
        if (op->is_write)
            ins[ni++] = (outputs_file_t){NAME("host[%d].write.file", i), op->file};
        else
            outs[no++] = (outputs_file_t){NAME("host[%d].read.file", i), op->file};
    }
    for (int i = 0; i < cfg->ntio; i++) {
        const cfg_tio_t *t = &cfg->tio[i];
        if (t->kind == TIO_OUTPUT)
            outs[no++] = (outputs_file_t){t->origin, t->file};
        else
            ins[ni++] = (outputs_file_t){t->origin, t->file};
    }
#undef NAME
    rc = outputs_check(outs, no, ins, ni, err, sizeof err);
    if (rc) fprintf(stderr, "ttemu: %s\n", err);
out:
    free(outs);
    free(ins);
    free(names);
    return rc;
}

/* --input, --output, --expect: the kind of tensor flag, or -1. */
static int tensor_flag(const char *a) {
    return !strcmp(a, "--input")    ? TIO_INPUT
           : !strcmp(a, "--output") ? TIO_OUTPUT
           : !strcmp(a, "--expect") ? TIO_EXPECT
                                    : -1;
}

static int cmd_run(int argc, char **argv) {
    static const char *const core_opts[TILE_NCORES] = {"--brisc", "--ncrisc", "--trisc0", "--trisc1", "--trisc2"};
    run_opts_t o = {.max_cycles = RUN_DEFAULT_MAX_CYCLES, .deadlock_window = RUN_DEFAULT_DEADLOCK_WINDOW};
    const char *config = NULL;
    bool max_cycles_given = false;
    int gate_policy = -1; /* --gate-policy, else the config's */
    trace_opts_t tro = {0};
    ui_opts_t ui = {0};
    const char *gdb_arg = NULL;
    gdb_opts_t gdbo = {0};
    int tensor_arg[argc > 0 ? argc : 1], ntensor_args = 0; /* where --input/--output/--expect are */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int core = -1;
        for (int c = 0; c < TILE_NCORES; c++)
            if (!strcmp(a, core_opts[c])) core = c;
        if (core >= 0) {
            if (!v) return bad_input("%s needs a file", a);
            if (o.elf[core]) return bad_input("%s given twice", a);
            o.elf[core] = v;
            i++;
        } else if (!strcmp(a, "--config")) {
            if (!v) return bad_input("%s needs a file", a);
            config = v;
            i++;
        } else if (!strcmp(a, "--max-cycles")) {
            if (!parse_u64(v, &o.max_cycles) || o.max_cycles == 0)
                return bad_input("--max-cycles needs a positive number, got '%s'", v ? v : "");
            max_cycles_given = true;
            i++;
        } else if (!strcmp(a, "--deadlock-window")) {
            if (!parse_u64(v, &o.deadlock_window))
                return bad_input("--deadlock-window needs a number of cycles (0 disables), got '%s'", v ? v : "");
            i++;
        } else if (!strcmp(a, "--gate-policy")) {
            if ((gate_policy = cp_gate_policy_parse(v)) < 0)
                return bad_input("--gate-policy needs exact or whole-thread, got '%s'", v ? v : "");
            i++;
        } else if (!strcmp(a, "--report")) {
            if (!v) return bad_input("%s needs a file", a);
            o.report_path = v;
            i++;
        } else if (!strcmp(a, "--peek")) {
            if (v && o.npeeks == RUN_MAX_PEEKS) return bad_input("--peek %s: at most 64 peeks may be given", v);
            if (!v || !run_parse_peek(v, &o.peeks[o.npeeks]))
                return bad_input("--peek needs ADDR[:WORDS] (4-byte aligned address, 1..4096 words), got '%s'",
                                 v ? v : "");
            o.npeeks++;
            i++;
        } else if (!strcmp(a, "--trace") || !strcmp(a, "--trace-vcd")) {
            if (!v) return bad_input("%s needs a file", a);
            if (!strcmp(a, "--trace"))
                tro.json_path = v;
            else
                tro.vcd_path = v;
            i++;
        } else if (!strcmp(a, "--trace-window") || !strcmp(a, "--trace-start") || !strcmp(a, "--trace-stop")) {
            uint64_t *dst = !strcmp(a, "--trace-window")  ? &tro.window
                            : !strcmp(a, "--trace-start") ? &tro.start
                                                          : &tro.stop;
            if (!parse_u64(v, dst) || (dst != &tro.start && *dst == 0))
                return bad_input("%s needs a positive number of cycles", a);
            i++;
        } else if (tensor_flag(a) >= 0) {
            if (!v) return bad_input("%s needs NAME=FILE", a);
            tensor_arg[ntensor_args++] = i++; /* applied once the config, which declares them, is read */
        } else if (!strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "--ui")) {
            ui.live = true;
        } else if (!strcmp(a, "--ui-screenshot") || !strcmp(a, "--ui-snapshot")) {
            if (!v) return bad_input("%s needs a file", a);
            *(!strcmp(a, "--ui-screenshot") ? &ui.shot : &ui.snap_json) = v;
            i++;
        } else if (!strcmp(a, "--ui-at")) {
            if (!parse_u64(v, &ui.at)) return bad_input("--ui-at needs a cycle number, got '%s'", v ? v : "");
            ui.at_given = true;
            i++;
        } else if (!strcmp(a, "--gdb")) {
            char gerr[256];
            if (!v) return bad_input("%s needs PORT or 127.0.0.1:PORT", a);
            if (!gdb_parse_addr(v, &gdbo.port, gerr, sizeof gerr)) return bad_input("%s", gerr);
            gdb_arg = v;
            i++;
        } else if (!strcmp(a, "--gdb-wait")) {
            gdbo.wait = true;
        } else {
            return bad_input("unknown option '%s'", a);
        }
    }

    /* The panel (docs/ui.md): --ui for a window, --ui-screenshot for one headless frame. */
    bool want_ui = ui.live || ui.shot || ui.snap_json || ui.at_given;
#ifndef TTEMU_UI
    if (want_ui) {
        fprintf(stderr, "ttemu: --ui: built without the panel (UI=0)\n");
        return EXIT_BAD_INPUT;
    }
#endif
    if (ui.live && ui.shot) return bad_input("%s", "--ui and --ui-screenshot exclude each other");
    if (want_ui && !ui.live && !ui.shot)
        return bad_input("%s", "--ui-at and --ui-snapshot need --ui or --ui-screenshot");
    if (ui.snap_json && !ui.shot) return bad_input("%s", "--ui-snapshot goes with --ui-screenshot");
    if (gdbo.wait && !gdb_arg) return bad_input("%s", "--gdb-wait goes with --gdb PORT");
    if ((tro.window || tro.start || tro.stop) && !tro.json_path && !tro.vcd_path)
        return bad_input("%s", "--trace-window/--trace-start/--trace-stop need --trace or --trace-vcd");
    if (tro.window && (tro.start || tro.stop))
        return bad_input("%s",
                         "--trace-window keeps the last N cycles; it does not combine with --trace-start/--trace-stop");

    /* The run is described by a config: the file, or one made from the flags. Flags override it. */
    cfg_t cfg;
    char err[512];
    if (config) {
        if (cfg_load(config, &cfg, err, sizeof err) != 0) {
            fprintf(stderr, "ttemu: %s\n", err);
            cfg_free(&cfg);
            return EXIT_BAD_INPUT;
        }
    } else {
        memset(&cfg, 0, sizeof cfg);
        cfg.stop.kind = STOP_HALTED;
    }
    bool ttmetal = cfg.firmware[0] != NULL;
    for (int c = 0; c < TILE_NCORES; c++) {
        if (!o.elf[c]) continue;
        if (ttmetal) {
            cfg_free(&cfg);
            return bad_input("%s: a tt-metal config runs its own firmware; core flags apply to bare-mode runs",
                             core_opts[c]);
        }
        free(cfg.cores[c]);
        cfg.cores[c] = strdup(o.elf[c]);
        cfg.core_flat[c] = false;
    }
    for (int t = 0; t < ntensor_args; t++) {
        int i = tensor_arg[t];
        if (cfg_add_tensor_arg(&cfg, (cfg_tio_kind_t)tensor_flag(argv[i]), argv[i + 1], err, sizeof err) != 0) {
            fprintf(stderr, "ttemu: %s\n", err);
            cfg_free(&cfg);
            return EXIT_BAD_INPUT;
        }
    }
    char stale[256];
    cfg_drop_stale_expectations(&cfg, stale, sizeof stale);
    if (stale[0])
        fprintf(stderr,
                "ttemu: note: %s: the config's expectation of %s is for its own inputs; not checked, since --input "
                "replaced an input (give --expect to compare)\n",
                cfg.path, stale);
    if (!max_cycles_given && cfg.max_cycles_set) o.max_cycles = cfg.max_cycles;
    if (!o.npeeks) {
        memcpy(o.peeks, cfg.peeks, sizeof o.peeks);
        o.npeeks = cfg.npeeks;
    }
    int nimages = 0;
    for (int c = 0; c < TILE_NCORES; c++)
        nimages += cfg.cores[c] != NULL;
    if (!ttmetal && !nimages) {
        cfg_free(&cfg);
        return bad_input("%s", "nothing to run: give --config or at least one of --brisc/--ncrisc/--trisc0/1/2");
    }

    if (check_outputs(&o, &tro, &ui, config, &cfg) != 0) {
        cfg_free(&cfg);
        return EXIT_BAD_INPUT;
    }

    /* Files the host moves (host write files, tensors): read and checked before anything runs. */
    if (hio_prepare(&cfg, err, sizeof err) != 0) {
        fprintf(stderr, "ttemu: %s\n", err);
        cfg_free(&cfg);
        return EXIT_BAD_INPUT;
    }

    run_t r = {0};
    r.progress.window = o.deadlock_window;
    r.explain = diag_build;
    /* docs/cli.md "Environment": TTEMU_REFERENCE=1 runs the reference path (hart_step, no decode
     * cache, no run-ahead), which test/sh/t_fastpath.sh compares against the fast one;
     * TTEMU_SPIN=0 the fast path without the idle fast-forward (for measuring the rest). */
    tile_opts_t topts = runcfg_tile_opts();
    r.tile = tile_create(&topts);
    if (!r.tile) {
        fprintf(stderr, "ttemu: out of memory\n");
        cfg_free(&cfg);
        return EXIT_BAD_INPUT;
    }
    /* docs/gate-policies.md: how a latched wait holds its thread (the flag, else the config). */
    cp_set_gate_policy(r.tile->cp, gate_policy >= 0 ? (cp_gate_policy_t)gate_policy : cfg.gate_policy);
    int rc = EXIT_BAD_INPUT;
    trace_t *tr = NULL;
    gdb_t *gdb = NULL;
#ifdef TTEMU_UI
    panel_plugin_t plug = {0};
    ui_t *panel = NULL;
#endif
    if (runcfg_load_cores(&r, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
    if (run_add_peeks(&r, o.peeks, o.npeeks, err, sizeof err) != 0) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
    if ((tro.json_path || tro.vcd_path) && !(tr = trace_start(&r, &tro, err, sizeof err))) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
    /* Bare mode: each core given an image leaves reset at its entry; the others stay in reset.
     * tt-metal mode: the host boots the firmware and launches kernels through its mailboxes. */
#ifdef TTEMU_UI
    if (want_ui && !panel_plugin_load(&plug, err, sizeof err)) {
        fprintf(stderr, "ttemu: --ui: %s\n", err);
        goto out;
    }
    if (want_ui && !(panel = plug.attach(&r, &ui, err, sizeof err))) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
#endif
    if (gdb_arg && !(gdb = gdb_start(&r, &gdbo, err, sizeof err))) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
    int ok = ttmetal ? ttm_run(&r, &cfg, o.max_cycles, err, sizeof err)
                     : ttm_run_bare(&r, &cfg, o.max_cycles, err, sizeof err);
    if (ok != 0) {
        fprintf(stderr, "ttemu: %s\n", err);
        goto out;
    }
    run_take_peeks(&r);
    /* Outputs and saved reads written, expectations compared: a file that cannot be written or a
     * point never reached is bad input (4), a tensor that differs a mismatch (5), each only when
     * the run itself succeeded (a deadlock stays a deadlock). */
    int failed = 0;
    if (hio_finish(&r, &cfg, &failed, err, sizeof err) != 0) {
        fprintf(stderr, "ttemu: %s\n", err);
        if (r.exit.code == EXIT_HALTED) {
            r.exit.code = EXIT_BAD_INPUT;
            r.exit.reason = "bad_input";
            snprintf(r.exit.message, sizeof r.exit.message, "%s", err);
        }
    } else if (failed && r.exit.code == EXIT_HALTED) {
        r.exit.code = EXIT_MISMATCH;
        r.exit.reason = "mismatch";
        report_mismatch_message(&cfg, r.exit.message, sizeof r.exit.message);
        fprintf(stderr, "ttemu: %s\n", r.exit.message);
    }
    r.tensors_json = report_tensors(&cfg);
    if (r.tile->reference) fprintf(stderr, "ttemu: ran the reference path (TTEMU_REFERENCE)\n");
    runcfg_print_stats(r.tile, stderr);
    rc = r.exit.code;
    if (rc == EXIT_GUEST_FAULT || rc == EXIT_UNIMPLEMENTED || rc == EXIT_DEADLOCK)
        fprintf(stderr, "ttemu: %s\n", r.exit.message);
    if (r.diag_text) fputs(r.diag_text, stderr);
    if (!o.quiet) {
        report_summary(&r, stdout);
        report_tensor_summary(&cfg, stdout);
    }
    if (o.report_path && !report_write(&r, o.report_path)) rc = EXIT_BAD_INPUT;
    if (!trace_ok(tr)) rc = EXIT_BAD_INPUT;
#ifdef TTEMU_UI
    if (panel && !plug.ok(panel)) rc = EXIT_BAD_INPUT;
#endif
out:
#ifdef TTEMU_UI
    if (panel) plug.free(panel);
#endif
    gdb_free(gdb);
    run_free(&r);
    trace_free(tr);
    cfg_free(&cfg);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_BAD_INPUT;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ttemu %s\n", TTEMU_VERSION);
#ifdef TTEMU_UI
        printf("features: ui\n");
#else
        printf("features: -ui (built with UI=0)\n");
#endif
        return 0;
    }
    if (!strcmp(argv[1], "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "regress")) return regress_main(argc - 2, argv + 2);
    if (!strcmp(argv[1], "compare-policies")) return policy_main(argc - 2, argv + 2);
    fprintf(stderr, "ttemu: unknown command '%s'\n", argv[1]);
    fputs(usage, stderr);
    return EXIT_BAD_INPUT;
}
