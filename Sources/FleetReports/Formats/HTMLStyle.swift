/// The inline stylesheet of report pages and the index. Inline because a report is one file
/// that opens from a mail attachment or a USB stick with no network; system fonts only.
enum HTMLStyle {
    static let css = """
    :root { --ink: #1f2933; --muted: #5b6775; --rule: #d9dee3; --band: #f3f5f8; --accent: #2f5d8a; --bad: #b42318; }
    * { box-sizing: border-box; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { margin: 0 auto; max-width: 1200px; padding: 24px 32px 48px; color: var(--ink); background: #fff;
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
    p.note { color: var(--muted); margin: 0 0 8px; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: auto; min-width: 60%; font-variant-numeric: tabular-nums; }
    th, td { padding: 5px 10px; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
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
      @page { size: A4 landscape; margin: 12mm; }
      body { max-width: none; padding: 0; font-size: 11px; }
      nav.toc { display: none; }
      section.block ~ section.block { break-before: page; }
      thead th { position: static; }
      tr, figure.chart, .figure { break-inside: avoid; }
      .table-wrap { overflow: visible; }
      table { width: 100%; }
      a { color: inherit; text-decoration: none; }
    }
    """
}
