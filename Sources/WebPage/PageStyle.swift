/// The page's style sheet.
enum PageStyle {
    static let text = """
        :root { color-scheme: light dark; --ok: #2e7d32; --bad: #c62828; --warn: #ef6c00; --muted: #888; }
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; }
        header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; border-bottom: 1px solid #8884; flex-wrap: wrap; }
        h1 { font-size: 1.2em; margin: 0; }
        h2 { font-size: 1.05em; margin: 1.2em 0 .4em; }
        main { padding: 0 1em 2em; max-width: 1100px; }
        table { border-collapse: collapse; width: 100%; margin-bottom: .6em; }
        th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid #8883; vertical-align: top; }
        th { font-weight: 600; color: var(--muted); }
        td.answer, td.outcome code { font-family: ui-monospace, monospace; font-size: 12px; word-break: break-all; }
        td.outcome summary { cursor: pointer; }
        td.outcome details code { display: block; margin-top: .2em; }
        dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; margin: 0; }
        dt { color: var(--muted); }
        .badge { padding: .1em .5em; border-radius: .8em; font-size: .9em; white-space: nowrap; }
        .online, .enabled, .on, .ok { color: #fff; background: var(--ok); }
        .offline, .error, .failed { color: #fff; background: var(--bad); }
        .disabled, .off, .mixed { color: #fff; background: var(--warn); }
        .unknown { color: #fff; background: var(--muted); }
        .cards { display: flex; flex-wrap: wrap; gap: 1em; }
        .card { border: 1px solid #8885; border-radius: .5em; padding: .6em .8em; min-width: 280px; flex: 1; }
        .card h3 { margin: 0 0 .4em; font-size: 1em; }
        .countdown { font-variant-numeric: tabular-nums; font-weight: 600; }
        .control button, .controls-all button, .card button { margin: 0 .2em .2em 0; }
        input.for { width: 5em; }
        body:not(.controls-ready) .control, body:not(.controls-ready) .controls-all,
        body:not(.controls-ready) .card-controls { display: none; }
        #messages li.error, #messages li.critical { color: var(--bad); }
        #messages li.warning { color: var(--warn); }
        #toast { position: fixed; bottom: 1em; right: 1em; padding: .5em 1em; border-radius: .4em; background: #333; color: #fff; max-width: 40em; }
        #login-error { color: var(--bad); }
        body { overflow-wrap: anywhere; }
        details.fold > summary { cursor: pointer; font-weight: 600; margin: 1.2em 0 .4em; }
        li details, td details { display: inline; }
        /* A phone: nothing wider than the screen, rows as wrapped lines, controls for a thumb. */
        @media (max-width: 600px) {
          header { padding: .4em .6em; }
          main { padding: 0 .6em 2em; }
          h2 { margin: .6em 0 .2em; }
          p { margin: .3em 0; }
          .card { padding: .3em .6em; }
          dl { grid-template-columns: repeat(2, max-content auto); }
          table, tbody, tr, td { display: block; }
          thead { display: none; }
          tr { display: flex; flex-wrap: wrap; align-items: center; gap: .2em .8em; padding: .4em 0; border-bottom: 1px solid #8883; }
          td { border: 0; padding: 0; }
          td.control { flex-basis: 100%; }
          .card { min-width: 0; }
          button { min-height: 44px; min-width: 44px; padding: 0 .9em; }
          input.for { min-height: 40px; }
          #toast { left: 1em; }
        }
        """
}
