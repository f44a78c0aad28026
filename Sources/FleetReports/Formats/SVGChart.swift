import Foundation

/// Draws a `ReportChart` as inline SVG, so the HTML report shows charts with no script, no
/// network and in print. Coordinates are printed with at most one decimal, so output is
/// byte-stable; every label and tooltip (`<title>`) is HTML-escaped because category and series
/// names come from imported data.
///
/// - stackedBar: vertical columns, one stack per category (cost by month and category).
/// - bar: horizontal bars, one row per category (utilization by asset); several series are
///   grouped; a `target` is a dashed line across them, named under the axis.
/// - timeline: one row per category with a marker at its value, read as days from the report
///   date (negative = overdue, shaded), with a "today" line at zero.
struct SVGChart {
    let chart: ReportChart

    /// Tableau 10: distinct in colour and in greyscale print.
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
    static let width = 760.0
    static let charWidth = 6.3   // average width of an 11px sans-serif glyph, for layout estimates

    static func color(_ i: Int) -> String { palette[i % palette.count] }

    /// `<figure>` with caption, SVG and (for several series) a legend.
    func figure() -> String {
        var out = "<figure class=\"chart\">\n<figcaption>\(esc(chart.title))</figcaption>\n"
        out += svg()
        if chart.series.count > 1 || chart.kind == .stackedBar {
            out += "<ul class=\"legend\">"
            for (i, s) in chart.series.enumerated() {
                out += "<li><svg width=\"10\" height=\"10\" aria-hidden=\"true\"><rect width=\"10\" height=\"10\" fill=\"\(Self.color(i))\"/></svg>\(esc(s.name))</li>"
            }
            out += "</ul>\n"
        }
        return out + "</figure>\n"
    }

    func svg() -> String {
        guard !chart.categories.isEmpty, !chart.series.isEmpty else {
            return "<p class=\"empty\">No data to chart.</p>\n"
        }
        switch chart.kind {
        case .stackedBar: return stackedColumns()
        case .bar: return horizontal(markers: false)
        case .timeline: return horizontal(markers: true)
        }
    }

    private func value(_ series: Int, _ category: Int) -> Double {
        let values = chart.series[series].values
        guard category < values.count, values[category].isFinite else { return 0 }
        return values[category]
    }

    // MARK: stacked columns

    private func stackedColumns() -> String {
        let n = chart.categories.count
        var lowest = 0.0, highest = 0.0
        for c in 0..<n {
            var pos = 0.0, neg = 0.0
            for s in chart.series.indices { let v = value(s, c); if v >= 0 { pos += v } else { neg += v } }
            highest = max(highest, pos); lowest = min(lowest, neg)
        }
        let axis = Axis(lowest, highest)
        let left = 16 + max(6, Double(axis.labels.map(\.count).max() ?? 1)) * Self.charWidth + 22
        let right = 12.0, top = 12.0, plotH = 260.0
        let plotW = Self.width - left - right
        let band = plotW / Double(n)
        let longest = Double(chart.categories.map { truncated($0).count }.max() ?? 1) * Self.charWidth
        let rotate = longest > band - 6
        let bottom = rotate ? 22 + longest * 0.6 : 30.0
        let height = top + plotH + bottom
        func y(_ v: Double) -> Double { top + plotH * (axis.high - v) / (axis.high - axis.low) }

        var out = open(height: height)
        out += yAxisTitle(x: 12, y: top + plotH / 2)
        for (tick, label) in zip(axis.ticks, axis.labels) {
            out += "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(Self.width - right))\" y2=\"\(f(y(tick)))\" stroke=\"\(tick == 0 ? "#52606d" : "#e1e5ea")\"/>"
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"#52606d\">\(esc(label))</text>\n"
        }
        let barW = min(band * 0.64, 90)   // a few categories should not make slabs
        for c in 0..<n {
            let x = left + band * Double(c) + (band - barW) / 2
            var pos = 0.0, neg = 0.0
            for s in chart.series.indices {
                let v = value(s, c)
                guard v != 0 else { continue }
                let from = v > 0 ? pos : neg
                let to = from + v
                if v > 0 { pos = to } else { neg = to }
                let y0 = y(max(from, to)), y1 = y(min(from, to))
                out += "<rect x=\"\(f(x))\" y=\"\(f(y0))\" width=\"\(f(barW))\" height=\"\(f(max(0.5, y1 - y0)))\" fill=\"\(Self.color(s))\">"
                out += "<title>\(esc(chart.categories[c])) · \(esc(chart.series[s].name)): \(esc(Axis.valueText(v)))</title></rect>\n"
            }
            let cx = left + band * (Double(c) + 0.5), ly = top + plotH + 16
            let label = esc(truncated(chart.categories[c]))
            if rotate {
                out += "<text x=\"\(f(cx))\" y=\"\(f(ly))\" text-anchor=\"end\" transform=\"rotate(-35 \(f(cx)) \(f(ly)))\" font-size=\"11\" fill=\"#1f2933\">\(label)<title>\(esc(chart.categories[c]))</title></text>\n"
            } else {
                out += "<text x=\"\(f(cx))\" y=\"\(f(ly))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#1f2933\">\(label)<title>\(esc(chart.categories[c]))</title></text>\n"
            }
        }
        return out + "</svg>\n"
    }

    // MARK: horizontal bars and timeline

    private func horizontal(markers: Bool) -> String {
        let n = chart.categories.count, k = chart.series.count
        var lowest = 0.0, highest = 0.0
        for c in 0..<n { for s in 0..<k { lowest = min(lowest, value(s, c)); highest = max(highest, value(s, c)) } }
        let target = markers ? nil : chart.target.flatMap { $0.isFinite ? $0 : nil }
        if let target { lowest = min(lowest, target); highest = max(highest, target) }
        let axis = Axis(lowest, highest)
        let labelW = min(220, Double(chart.categories.map { truncated($0).count }.max() ?? 1) * Self.charWidth)
        let left = labelW + 16, right = markers ? 24.0 : 64.0, top = 8.0
        let rowH = markers ? 24.0 : max(24, Double(k) * 12 + 10)
        let plotH = rowH * Double(n)
        let height = top + plotH + 48
        let plotW = Self.width - left - right
        func x(_ v: Double) -> Double { left + plotW * (v - axis.low) / (axis.high - axis.low) }

        var out = open(height: height)
        if markers, axis.low < 0 {
            out += "<rect x=\"\(f(x(axis.low)))\" y=\"\(f(top))\" width=\"\(f(x(0) - x(axis.low)))\" height=\"\(f(plotH))\" fill=\"#fdecea\"><title>overdue</title></rect>\n"
        }
        for (tick, label) in zip(axis.ticks, axis.labels) {
            out += "<line x1=\"\(f(x(tick)))\" y1=\"\(f(top))\" x2=\"\(f(x(tick)))\" y2=\"\(f(top + plotH))\" stroke=\"\(tick == 0 ? "#52606d" : "#e1e5ea")\"/>"
            out += "<text x=\"\(f(x(tick)))\" y=\"\(f(top + plotH + 15))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#52606d\">\(esc(label))</text>\n"
        }
        if markers {
            out += "<text x=\"\(f(x(0)))\" y=\"\(f(top + 10))\" dx=\"4\" font-size=\"10\" fill=\"#52606d\">today</text>\n"
        }
        if let target {
            let name = "\(chart.targetLabel ?? "target") \(Axis.valueText(target)) \(chart.valueLabel)"
            out += "<line class=\"target\" x1=\"\(f(x(target)))\" y1=\"\(f(top))\" x2=\"\(f(x(target)))\" y2=\"\(f(top + plotH))\" stroke=\"#b42318\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"><title>\(esc(name))</title></line>"
            out += "<text x=\"\(f(x(target)))\" y=\"\(f(top + plotH + 28))\" text-anchor=\"middle\" font-size=\"10\" fill=\"#b42318\">\(esc(name))</text>\n"
        }
        out += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(top + plotH + 36))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#52606d\">\(esc(chart.valueLabel))</text>\n"
        for c in 0..<n {
            let rowTop = top + rowH * Double(c)
            out += "<text x=\"\(f(left - 8))\" y=\"\(f(rowTop + rowH / 2 + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"#1f2933\">\(esc(truncated(chart.categories[c])))<title>\(esc(chart.categories[c]))</title></text>\n"
            let barH = markers ? 0 : (rowH - 10) / Double(k)
            for s in 0..<k {
                let v = value(s, c)
                let tip = "<title>\(esc(chart.categories[c])) · \(esc(chart.series[s].name)): \(esc(Axis.valueText(v)))</title>"
                if markers {
                    let cy = rowTop + rowH / 2
                    out += "<line x1=\"\(f(x(0)))\" y1=\"\(f(cy))\" x2=\"\(f(x(v)))\" y2=\"\(f(cy))\" stroke=\"#c5ccd3\"/>"
                    out += "<circle cx=\"\(f(x(v)))\" cy=\"\(f(cy))\" r=\"5\" fill=\"\(v < 0 ? "#b42318" : Self.color(s))\">\(tip)</circle>\n"
                } else {
                    let y0 = rowTop + 5 + barH * Double(s)
                    let x0 = x(min(0, v)), x1 = x(max(0, v))
                    out += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(max(0.5, x1 - x0)))\" height=\"\(f(barH - 1))\" fill=\"\(Self.color(s))\">\(tip)</rect>"
                    let lx = v >= 0 ? x1 + 4 : x0 - 4
                    out += "<text x=\"\(f(lx))\" y=\"\(f(y0 + barH / 2 + 3.5))\" text-anchor=\"\(v >= 0 ? "start" : "end")\" font-size=\"10\" fill=\"#1f2933\">\(esc(Axis.valueText(v)))</text>\n"
                }
            }
        }
        return out + "</svg>\n"
    }

    // MARK: pieces

    private func open(height: Double) -> String {
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(f(Self.width)) \(f(height))\" role=\"img\" aria-label=\"\(esc(chart.title))\">\n<title>\(esc(chart.title))</title>\n"
    }

    private func yAxisTitle(x: Double, y: Double) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"middle\" transform=\"rotate(-90 \(f(x)) \(f(y)))\" font-size=\"11\" fill=\"#52606d\">\(esc(chart.valueLabel))</text>\n"
    }

    private func esc(_ s: String) -> String { HTMLEscape.escape(s) }

    /// Long labels are cut for layout; the full text is in the label's `<title>`.
    private func truncated(_ s: String) -> String { s.count > 28 ? String(s.prefix(27)) + "…" : s }

    /// A coordinate with at most one decimal.
    private func f(_ d: Double) -> String {
        let s = String(format: "%.1f", d)
        return s.hasSuffix(".0") ? String(s.dropLast(2)) : (s == "-0" ? "0" : s)
    }

    /// A value axis with round tick steps (1, 2 or 5 × 10^n) covering `low...high`.
    struct Axis {
        var low: Double
        var high: Double
        var ticks: [Double]
        var labels: [String]

        init(_ low: Double, _ high: Double, count: Int = 5) {
            var lo = low, hi = high
            if hi - lo <= 0 { hi = lo + 1 }
            let raw = (hi - lo) / Double(count)
            let magnitude = pow(10, floor(log10(raw)))
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
            lo = (lo / step).rounded(.down) * step
            hi = (hi / step).rounded(.up) * step
            self.low = lo
            self.high = hi
            let places = step >= 1 ? 0 : Int(-floor(log10(step)))
            var t: [Double] = []
            var i = 0
            while lo + Double(i) * step <= hi + step / 2 { t.append(lo + Double(i) * step); i += 1 }
            ticks = t.map { abs($0) < step / 1e6 ? 0 : $0 }
            labels = ticks.map { ValueText.grouped($0, places: places) }
        }

        /// A bar or tooltip value: whole numbers without decimals, others with one or two.
        static func valueText(_ v: Double) -> String {
            v == v.rounded() ? ValueText.grouped(v, places: 0) : ValueText.grouped(v, places: abs(v) < 10 ? 2 : 1)
        }
    }
}
