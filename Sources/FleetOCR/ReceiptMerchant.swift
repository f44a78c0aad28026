import Foundation
import FleetCore

/// The merchant and the spending category of a receipt.
///
/// **Merchant.** The name is in the header, above the first amount, but so are logos, and OCR
/// reads a logo as noise (`SB»WBI'EHHBUS`, `P r»: N N ‘? — M A R K T`): 4 of 10 stored
/// merchants were such noise. Each header line gets a quality score (letters against symbols,
/// words with vowels, no letter-spaced runs, not an address, phone or tax line); a known brand
/// is a strong hint. The first line scoring at least the review threshold is the merchant;
/// otherwise none is, and a note names the best line for the reviewer: a name below the
/// threshold is more often noise or a wrong line than the name, and stored it would count as
/// read.
///
/// **Header.** The lines above the first item: a line with an amount (a number with a decimal
/// mark, `2,1` or `0,518` too: OCR drops digits of item prices) or a date ends it. Without the
/// date as an end the search ran into the items of a slip whose item amounts OCR lost their
/// cents (`essence colour&go nailpol. 189 le55e"1` under `11.12.2014 11:05`, the dm slip).
///
/// **Category.** Decided by the line items and the merchant's name, never by one word anywhere
/// on the slip: `Service` in a supermarket's footer is not maintenance. A category needs a
/// score of 2: an unambiguous word (`TOLL`, `TIRE`, `OIL CHANGE`, a parts chain) counts 2, a
/// word that also means other things (`SERVICE`, `FILTER`, `BATTERY`) 1.
struct ReceiptMerchant {
    typealias Line = ReceiptExtractor.Line

    /// Fuel brands and chains whose name on a header line makes that line the merchant.
    /// Fuel brands (a slip headed by one is a fuel slip when it prints a volume).
    static let fuelBrands = ["SHELL", "BP", "CIRCLE K", "NESTE", "ORLEN", "TOTAL", "TOTALENERGIES", "ESSO", "ARAL", "PETRONAS", "CHEVRON", "EXXON",
                             "MOBIL", "TEXACO", "CALTEX", "ENEOS", "IDEMITSU", "REPSOL", "CEPSA", "AGIP", "Q8", "OMV", "AVIA", "LUKOIL", "MARATHON",
                             "SUNOCO", "VALERO", "CITGO", "PHILLIPS 66", "SINCLAIR", "SPEEDWAY", "STATOIL", "VIADA"]
    static let brands = ["SHELL", "BP", "CIRCLE K", "NESTE", "ORLEN", "TOTAL", "TOTALENERGIES", "ESSO", "ARAL", "PETRONAS", "CHEVRON", "EXXON",
                         "MOBIL", "TEXACO", "CALTEX", "ENEOS", "IDEMITSU", "REPSOL", "CEPSA", "AGIP", "Q8", "OMV", "AVIA", "LUKOIL", "MARATHON",
                         "SUNOCO", "VALERO", "CITGO", "PHILLIPS 66", "SINCLAIR", "SPEEDWAY", "WAWA", "SHEETZ", "PILOT", "FLYING J", "LOVE'S",
                         "QUIKTRIP", "RACETRAC", "7-ELEVEN", "STATOIL", "VIADA", "AUTOZONE", "NAPA", "O'REILLY", "ADVANCE AUTO", "DISCOUNT TIRE",
                         "JIFFY LUBE", "VALVOLINE", "MIDAS", "PEP BOYS", "HALFORDS", "NORAUTO", "EUROMASTER"]
    static let legalForms = ["GMBH", "MBH", "LTD", "BHD", "SDN", "PLC", "LLC"]
    static let notNames = ["WELCOME", "RECEIPT", "TAX INVOICE", "INVOICE", "CUSTOMER COPY", "MERCHANT COPY", "COPY", "ORIGINAL", "KASSENBON",
                           "BELEG", "QUITTUNG", "TICKET", "RECU", "KVITAS", "DUPLICATE", "SALE", "THANK YOU", "EUR", "USD", "OWNED BY",
                           "OPERATED BY", "CASH SALES", "SALES COUNTER"]
    /// Words of address, contact and registration lines.
    static let addressWords = ["STR", "STRASSE", "ALLEE", "WEG", "PLATZ", "RUE", "AVENUE", "AVE", "ROAD", "RD", "STREET", "ST", "DR", "BLVD", "HWY",
                               "JALAN", "JLN", "LOT", "TMN", "TAMAN", "LORONG", "PERSIARAN", "MUKIM", "KAMPUNG", "GATVE", "TEL", "PHONE", "FAX", "UID", "VAT", "GST", "SIRET", "STEUER", "NR", "REG", "WWW", "HTTP"]

    static func merchant(_ lines: [Line], notes: inout [String]) -> ReceiptFields.Field<String>? {
        var header: [(line: Int, name: String, quality: Double)] = []
        for (i, line) in lines.prefix(headerEnd(lines)).enumerated() {
            let name = cleaned(line.text)
            guard !name.isEmpty else { continue }
            header.append((i, name, quality(name) * max(line.factor, 0.3)))
            if header.count >= 6 { break }
        }
        if let brand = header.first(where: { h in let key = ReceiptPatterns.key(h.name); return brands.contains { ReceiptPatterns.contains(key, $0) } }),
           brand.quality > 0.2 {
            return .init(brand.name, confidence: 0.9 * max(lines[brand.line].factor, 0.5), line: brand.line)
        }
        if let sure = header.first(where: { $0.quality >= ReceiptFields.reviewThreshold }) {
            // The first name line; later ones lose a little (a subtitle, a franchisee).
            let rank = header.firstIndex { $0.line == sure.line }!
            return .init(sure.name, confidence: sure.quality - 0.03 * Double(rank), line: sure.line)
        }
        guard let best = header.max(by: { $0.quality < $1.quality }), best.quality > 0.2 else {
            notes.append("merchant not found: no header line reads as a name")
            return nil
        }
        notes.append("merchant not stored: '\(best.name)' (line \(best.line + 1)) may be logo noise")
        return nil
    }

    /// The first line that is no longer the header: one holding an amount (a number with a
    /// decimal mark) or a date.
    static func headerEnd(_ lines: [Line]) -> Int {
        lines.firstIndex { l in
            l.numbers.contains { $0.value.scale > 0 && !ReceiptExtractor.isPercent($0, in: l.text) } || !ReceiptDates.numericDates(in: l.text).isEmpty
        } ?? lines.count
    }

    /// The line without edge noise and short logo fragments, spaces collapsed; empty when it is
    /// no name at all (a number, an address or contact line, a document title).
    static func cleaned(_ text: String) -> String {
        let edge = CharacterSet(charactersIn: " ~|_=*-.,:;'\"`!&»«„“”‘’<>[]{}()#\\/^°")
        // A bracket or bar glued to a word is a stroke OCR split off a letter or the paper's edge
        // (`VINCI] AUTOROUTES`): trimmed from each word, not only from the line's ends.
        let glued = CharacterSet(charactersIn: "|[]{}()")
        var tokens = text.trimmingCharacters(in: edge).split(separator: " ").map { String($0).trimmingCharacters(in: glued) }.filter { !$0.isEmpty }
        func longWords() -> Int { tokens.filter { $0.filter(\.isLetter).count >= 3 }.count }
        // A logo read as one or two lower-case letters at either end (`am dm-drogerie markt`).
        while tokens.count > 2, tokens[0].count <= 2, !tokens[0].allSatisfy(\.isUppercase), longWords() >= 2 { tokens.removeFirst() }
        while tokens.count > 2, tokens.last!.count <= 2, !tokens.last!.allSatisfy(\.isUppercase), longWords() >= 2 { tokens.removeLast() }
        let name = tokens.joined(separator: " ").trimmingCharacters(in: edge)
        let key = ReceiptPatterns.key(name)
        let visible = name.filter { !$0.isWhitespace }
        guard !visible.isEmpty, !(name.first?.isNumber ?? false),
              (name.split(whereSeparator: { !$0.isLetter }).map(\.count).max() ?? 0) >= 3 || brands.contains(where: { ReceiptPatterns.contains(key, $0) }),
              !notNames.contains(where: { key == $0 || key.hasPrefix($0 + " ") && $0.count > 6 }),
              !addressWords.contains(where: { ReceiptPatterns.contains(key, $0) }) || brands.contains(where: { ReceiptPatterns.contains(key, $0) }) else { return "" }
        return name
    }

    /// 0–1: how much a header line looks like a name rather than logo noise.
    static func quality(_ name: String) -> Double {
        let visible = name.filter { !$0.isWhitespace }
        let letters = visible.filter(\.isLetter).count
        let noise = visible.filter { !($0.isLetter || $0.isNumber || "-&'.,/+\"#".contains($0)) }.count
        let tokens = name.split(separator: " ")
        let spaced = tokens.filter { $0.count == 1 && $0.first!.isLetter }.count
        let words = tokens.filter { $0.filter(\.isLetter).count >= 3 }
        // Legal forms are written without vowels (`GmbH`).
        let vowelless = words.filter { w in !w.uppercased().contains { "AEIOUYÄÖÜÉÈÀ".contains($0) } && !legalForms.contains(w.uppercased()) }.count
        var q = 0.92
        q -= 0.25 * Double(noise)
        if Double(letters) < 0.7 * Double(visible.count) { q -= 0.3 }
        if spaced >= 3 { q -= 0.4 }
        if words.isEmpty { q -= 0.25 }
        q -= 0.2 * Double(vowelless)
        // Letters and digits mixed inside a word (`A1FBe`, `Biiker`'s cousin `B1lker`) are OCR
        // noise; brands like `Q8` or `7-ELEVEN` are found by name before this.
        q -= 0.2 * Double(tokens.filter { t in t.contains(where: \.isLetter) && t.contains(where: \.isNumber) }.count)
        // A house number ending the line: an address (`Bilker Allee 30`).
        if tokens.count >= 2, let last = tokens.last, last.count <= 3, last.allSatisfy(\.isNumber) { q -= 0.3 }
        // A run of four or more digits: a postcode, phone or tax number (`a 40219 Disseldorf`,
        // `0211/3398863`), not a name; store numbers have fewer digits (`#318`).
        q -= 0.3 * Double(tokens.filter { t in t.filter(\.isNumber).count >= 4 && t.allSatisfy { $0.isNumber || "/-.".contains($0) } }.count)
        return max(0, min(1, q))
    }

    // MARK: - Category

    static let categoryWords: [(category: String, strong: [String], weak: [String])] = [
        ("tires", ["TIRE", "TIRES", "TYRE", "TYRES", "REIFEN", "PNEU", "PNEUS", "DISCOUNT TIRE"], ["WHEEL ALIGNMENT", "BALANCING"]),
        ("tolls", ["TOLL", "TOLLWAY", "TURNPIKE", "E-ZPASS", "EZPASS", "PEAGE", "MAUT", "AUTOPISTA", "TOLLS"], []),
        ("repair", ["REPAIR", "REPAIRS", "REPARATUR", "COLLISION", "BODY SHOP"], ["WERKSTATT", "MECHANIC", "GARAGE", "LABOR", "LABOUR"]),
        ("maintenance", ["OIL CHANGE", "LUBE", "JIFFY LUBE", "WARTUNG", "ENTRETIEN", "VIDANGE", "INSPEKTION"], ["INSPECTION", "SERVICE"]),
        // German names are compounds (`Ölfilter`, `Bremsbeläge`), matched whole, folded; French
        // ones phrases (`huile moteur`).
        ("parts", ["AUTOZONE", "O'REILLY", "NAPA", "ADVANCE AUTO", "ERSATZTEIL", "ERSATZTEILE", "AUTOTEILE", "AUTO-TEILE", "MOTOR OIL", "WIPER",
                   "WIPER BLADE", "OLFILTER", "OELFILTER", "LUFTFILTER", "SCHEIBENWISCHER", "MOTOROL", "MOTOROEL", "BREMSBELAGE", "BREMSBELAEGE",
                   "BREMSSCHEIBEN", "ZUNDKERZEN", "ZUENDKERZEN", "PIECES AUTO", "HUILE MOTEUR", "ESSUIE-GLACE", "PLAQUETTES DE FREIN", "FILTRE A HUILE"],
         ["PARTS", "FILTER", "BATTERY", "BRAKE", "BULB", "BATTERIE", "FILTRE"]),
        ("registration", ["DMV", "REGISTRATION", "ZULASSUNG", "LICENSE PLATE"], []),
        ("insurance", ["INSURANCE", "VERSICHERUNG", "ASSURANCE"], []),
    ]
    /// Kinds of spending `expense.category` has no value for (stored as `other`).
    static let spendWords: [(kind: String, strong: [String], weak: [String])] = [
        ("lodging", ["HOTEL", "MOTEL", "HOSTEL", "ZIMMER", "UBERNACHTUNG", "UEBERNACHTUNG", "NUITEE", "LODGING"], ["ROOM", "NIGHT", "NIGHTS", "INN"]),
        ("parking", ["PARKING", "PARKHAUS", "PARKGEBUHR", "STATIONNEMENT", "CAR PARK"], ["PARKEN"]),
        ("food", ["RESTAURANT", "CAFE", "PUB", "BISTRO", "BURGER", "PIZZA", "SANDWICH", "COFFEE", "MEAL", "LUNCH", "DINNER", "BREAKFAST",
                  "SUPERMARKT", "SUPERMARKET", "GROCERY", "BACKEREI"],
         ["BEER", "ALE", "LAGER", "WINE", "PILS", "BROT", "BREAD", "MILK", "MILCH", "KAESE", "KASE", "WURST", "CHIPS", "BANANEN", "TEA", "SODA",
          "WATER", "CHOCOLATE", "SCHOKOL", "SUPPENGRUEN", "BROETCHEN", "WEIZENBROETCHEN", "PFAND", "FRUITS", "FISH", "FISCH"]),
    ]

    /// The category (an `expense.category` value) and, for `other`, a finer kind of spending.
    static func category(_ lines: [Line], merchantLine: Int?, minorDigits: Int) -> (category: String, kind: String?) {
        let skip = ReceiptPatterns.notTotal + ReceiptPatterns.totalKeywords.map(\.phrase) + ReceiptTotals.paymentWords
        // Item lines carry an amount and are not a total, tax, payment or change line; the
        // merchant's line and the header's first six lines count too: a chain's name, or a
        // toll station's `PEAGE DE VILLEFRANCHE` under `APRR AUTOROUTES`, says what it sells
        // when the item line is misread (`Classe 2 REAGE 7,40 EUR`).
        let header = min(headerEnd(lines), 6)
        let items = lines.enumerated().filter { i, line in
            i == merchantLine || i < header || (line.numbers.contains { $0.value.scale == minorDigits && minorDigits > 0 || $0.value.scale > 0 }
                                  && !skip.contains { ReceiptPatterns.contains(line.key, $0) })
        }.map(\.element.key)
        func score(_ strong: [String], _ weak: [String]) -> Int {
            items.reduce(0) { n, key in n + 2 * strong.filter { ReceiptPatterns.contains(key, $0) }.count + weak.filter { ReceiptPatterns.contains(key, $0) }.count }
        }
        var best = (category: "other", score: 1)
        for (category, strong, weak) in categoryWords {
            let s = score(strong, weak)
            if s > best.score { best = (category, s) }
        }
        if best.category != "other" { return (best.category, nil) }
        var kind: (String, Int)? = nil
        for (k, strong, weak) in spendWords {
            let s = score(strong, weak)
            if s >= 2, s > (kind?.1 ?? 0) { kind = (k, s) }
        }
        return ("other", kind?.0)
    }
}
