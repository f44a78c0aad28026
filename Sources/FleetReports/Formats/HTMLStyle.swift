/// The inline stylesheet of report pages and the index. Inline because a report is one file
/// that opens from a mail attachment or a USB stick with no network; system fonts only.
///
/// Tables (`table.fit`) are laid out with the column widths `HTMLColumnWidths` computed and
/// carry their total width in characters as `--chars`; the type size follows from it, so a
/// 22-column table fits a 1280 px window and an A4 or Letter landscape page instead of losing
/// its last columns. 0.64 em is a generous average character width (DejaVu Sans digits are
/// 0.636 em, most system fonts' narrower). On paper: landscape, headings kept with what follows,
/// charts and rows never split, the header row repeated on every page, the totals row once.
enum HTMLStyle {
    static let css = """
    :root { --ink: #1f2933; --muted: #5b6775; --rule: #d9dee3; --band: #f3f5f8; --accent: #2f5d8a; --bad: #b42318; }
    * { box-sizing: border-box; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { margin: 0 auto; max-width: 1600px; padding: 24px 24px 48px; color: var(--ink); background: #fff;
           font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
    header.report { border-bottom: 2px solid var(--accent); padding-bottom: 14px; margin-bottom: 8px; }
    h1 { font-size: 24px; margin: 0 0 8px; }
    h2 { font-size: 18px; margin: 28px 0 6px; color: var(--accent); }
    h3 { font-size: 15px; margin: 18px 0 6px; }
    dl.meta { display: flex; flex-wrap: wrap; gap: 4px 28px; margin: 0; }
    dl.meta div { display: flex; gap: 6px; }
    dl.meta dt { color: var(--muted); }
    dl.meta dd { margin: 0; font-weight: 600; }
    .partial { color: #8a1c1c; }
    div.partial { border: 2px solid #8a1c1c; border-radius: 6px; padding: 6px 14px; margin: 0 0 10px; background: #fdf0f0; }
    div.partial ul { margin: 4px 0; }
    .headline { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 14px; }
    .figure { border: 1px solid var(--rule); border-radius: 6px; padding: 8px 14px; min-width: 150px; background: var(--band); }
    .figure .label { display: block; font-size: 12px; color: var(--muted); }
    .figure .value { display: block; font-size: 20px; font-weight: 700; font-variant-numeric: tabular-nums; }
    nav.toc { font-size: 13px; margin: 10px 0 0; color: var(--muted); }
    nav.toc a { margin-right: 14px; color: var(--accent); }
    nav.toc a.index { font-weight: 600; padding-right: 14px; border-right: 1px solid var(--rule); }
    p.note { color: var(--muted); margin: 0 0 8px; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: auto; min-width: 60%; font-variant-numeric: tabular-nums; }
    table.fit { table-layout: fixed; width: 100%; min-width: calc(var(--chars) * 0.64 * 8.5px);
                font-size: clamp(8.5px, calc((min(100vw, 1600px) - 56px) / var(--chars) / 0.64), 14px); }
    th, td { padding: 5px 10px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
    table.fit th, table.fit td { padding: 4px 0.3em; overflow-wrap: break-word; }
    thead th { background: var(--band); border-bottom: 2px solid var(--ink); font-weight: 600; position: sticky; top: 0; }
    th .unit { color: var(--muted); font-weight: 400; white-space: nowrap; }
    th.num, td.num { text-align: right; }
    td.num, td.date { white-space: nowrap; }
    tbody tr:nth-child(even) td { background: #fafbfc; }
    tfoot td { font-weight: 700; border-top: 2px solid var(--ink); border-bottom: none; }
    p.empty { color: var(--muted); font-style: italic; }
    figure.chart { margin: 16px 0 28px; break-inside: avoid; }
    figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
    svg.chart { width: 100%; max-width: 900px; height: auto; display: block; }
    svg.chart text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
    ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 18px; padding: 0; margin: 6px 0 0; font-size: 12px; }
    ul.legend svg { vertical-align: -1px; margin-right: 5px; }
    dl.params { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
    dl.params dt { color: var(--muted); }
    dl.params dd { margin: 0; }
    code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
    ul.reports { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
    ul.reports li { border: 1px solid var(--rule); border-radius: 6px; padding: 12px 16px; }
    ul.reports a { font-weight: 600; font-size: 16px; color: var(--accent); }
    footer { margin-top: 36px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--rule); padding-top: 8px; }
    @media print {
      @page { size: landscape; margin: 10mm 8mm; }
      body { max-width: none; padding: 0; font-size: 10px; }
      h1 { font-size: 18px; }
      h2 { font-size: 14px; margin: 16px 0 4px; }
      h2, h3, p.note, figcaption { break-after: avoid; }
      footer { break-before: avoid; break-inside: avoid; }
      nav.toc { display: none; }
      thead { display: table-header-group; }
      tfoot { display: table-row-group; }
      thead th { position: static; }
      tr, figure.chart, .figure, dl.meta div { break-inside: avoid; }
      .table-wrap { overflow: visible; }
      table { width: 100%; }
      table.fit { min-width: 0; font-size: clamp(5.5px, calc(990px / var(--chars) / 0.64), 9.5px); }
      table.fit th, table.fit td { padding: 2px 0.3em; }
      svg.chart { max-height: 120mm; }
      a { color: inherit; text-decoration: none; }
    }
    """
}
