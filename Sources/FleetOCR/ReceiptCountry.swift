import Foundation

/// What a country's receipts print, and the evidence that names the country on a slip: one row
/// of the table `ReceiptLocale` decides from (docs/FORMATS.md, "Locale of a receipt").
///
/// Evidence is matched on folded upper-case text (`ReceiptPatterns.key`) as whole words. A word
/// counts only among the countries of this table, and a word several of them print names them
/// all: `JUMLAH` is Malay and Indonesian and names Malaysia and Indonesia, which settles the date
/// order they share and not the currency they do not.
public struct ReceiptCountry: Sendable, Equatable {
    /// ISO 3166-1 alpha-2.
    public var code: String
    /// ISO 4217 code of the country's currency.
    public var currency: String
    /// What a bare `$` means on its receipts; nil where `$` is not the local sign.
    public var dollarSign: String?
    /// `03/04/2025` is 3 April (day first) or March 4.
    public var dayFirst: Bool
    /// The decimal mark of printed amounts; the other of `.` and `,` groups thousands.
    public var decimalMark: Character
    /// Decimals printed on money amounts when they differ from ISO 4217's minor unit
    /// (Colombian pesos are printed without cents: `$90.300`).
    public var printedMinorDigits: Int?
    /// The unit fuel is sold in.
    public var fuelUnit: ReceiptFields.VolumeUnit
    /// The unit of odometers: "km" or "mi".
    public var distanceUnit: String
    /// The international dialling prefix (`+60`).
    public var phonePrefix: String
    /// Country names, states and regions, and address words only its addresses use.
    public var addressWords: [String]
    /// Words of its receipts' language that no other country of the table prints.
    public var languageWords: [String]
    /// Legal forms of its companies (`SDN BHD`, `GMBH`).
    public var legalForms: [String] = []
    /// Regular expressions (on folded text) of its tax and company registration numbers and of
    /// its domestic phone numbers. A shape two countries print (a 12-digit `GST` number:
    /// Malaysia's, and Singapore's slips print GST too) is listed under both and names both.
    public var idPatterns: [String] = []
    /// IANA time zones of the country: a fleet in one of them is in the country.
    public var zones: [String] = []
    /// Fuel and shop brands of its stations, matched in the header (the first `brandLines` lines):
    /// a brand sold in several countries of the table is listed under each and names them all;
    /// a global one (`SHELL`, `BP`) names none.
    public var brands: [String] = []
    /// The Tesseract language its receipts are printed in (`eng`, `deu`, `msa`, `spa`): other than
    /// English, the second reading of an unsure slip (`OCRPipeline.Options.secondLanguage`). English
    /// is a value like the others, so a slip with a US address and German words settles none.
    /// `make deps` installs the model of every language named here but `kor`.
    public var ocrLanguage = "eng"

    /// The countries FleetKit knows receipts of. Several rows may share a property (the euro,
    /// day-first dates): evidence naming any of them settles what they share.
    public static let all: [ReceiptCountry] = [
        ReceiptCountry(code: "MY", currency: "MYR", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+60",
                       addressWords: ["MALAYSIA", "SELANGOR", "JOHOR", "KELANTAN", "KEDAH", "PERAK", "PAHANG", "SABAH", "SARAWAK", "MELAKA",
                                      "TERENGGANU", "PERLIS", "NEGERI SEMBILAN", "PULAU PINANG", "KUALA LUMPUR", "PUTRAJAYA", "LABUAN",
                                      "JALAN", "JLN", "TAMAN", "TMN", "MUKIM", "KAMPUNG", "BANDAR", "LORONG", "PERSIARAN", "SEKSYEN"],
                       languageWords: ["BAKI", "CUKAI", "RINGGIT", "SILA DATANG LAGI"] + malayWords,
                       legalForms: ["SDN BHD", "SDN. BHD", "BHD"],
                       idPatterns: [#"\bGST\b[^0-9]{0,16}\d{12}\b"#, #"\bSST\b[^0-9]{0,16}[A-Z]\d{2}-\d{4}-\d{8}\b"#,
                                    #"(?<![\d+])0\d{1,2}-\d{3,4} ?\d{4}(?!\d)"#, #"\b[A-Z]{0,2}\d{5,9}-[A-Z]\b"#],
                       zones: ["Asia/Kuala_Lumpur", "Asia/Kuching"], brands: ["PETRONAS", "BHPETROL", "PETRON"], ocrLanguage: "msa"),
        ReceiptCountry(code: "SG", currency: "SGD", dollarSign: "SGD", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km",
                       phonePrefix: "+65", addressWords: ["SINGAPORE"], languageWords: [], legalForms: ["PTE LTD", "PTE. LTD"],
                       idPatterns: [#"\bGST\b[^0-9]{0,16}\d{12}\b"#], zones: ["Asia/Singapore"]),
        ReceiptCountry(code: "US", currency: "USD", dollarSign: "USD", dayFirst: false, decimalMark: ".", fuelUnit: .usGallon, distanceUnit: "mi",
                       phonePrefix: "+1", addressWords: ["USA", "U.S.A"], languageWords: [], legalForms: ["LLC", "INC"],
                       zones: ["America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
                               "America/Anchorage", "Pacific/Honolulu", "America/Detroit", "America/Indiana/Indianapolis", "America/Boise"], brands: ["WAWA", "SHEETZ", "QUIKTRIP", "RACETRAC", "SUNOCO", "CITGO", "MARATHON", "SPEEDWAY", "CASEY'S", "KWIK TRIP"]),
        ReceiptCountry(code: "CA", currency: "CAD", dollarSign: "CAD", dayFirst: false, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km",
                       phonePrefix: "+1", addressWords: ["CANADA", "ONTARIO", "QUEBEC", "ALBERTA", "MANITOBA", "SASKATCHEWAN", "NOVA SCOTIA"],
                       languageWords: [], zones: ["America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax"]),
        ReceiptCountry(code: "CO", currency: "COP", dollarSign: "COP", dayFirst: true, decimalMark: ",", printedMinorDigits: 0, fuelUnit: .usGallon,
                       distanceUnit: "km", phonePrefix: "+57",
                       addressWords: ["COLOMBIA", "BOGOTA", "MEDELLIN", "CALI", "BARRANQUILLA", "CARTAGENA", "BUCARAMANGA", "ANTIOQUIA",
                                      "CUNDINAMARCA", "VALLE DEL CAUCA"],
                       languageWords: ["GALONES", "GALON", "NIT"] + spanishWords, idPatterns: [#"\bNIT\b[^0-9]{0,6}\d{3}\.?\d{3}\.?\d{3}-?\d\b"#],
                       zones: ["America/Bogota"], brands: ["TERPEL", "BIOMAX"], ocrLanguage: "spa"),
        ReceiptCountry(code: "GB", currency: "GBP", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "mi", phonePrefix: "+44",
                       addressWords: ["UNITED KINGDOM", "ENGLAND", "SCOTLAND", "WALES", "LONDON"], languageWords: [], legalForms: ["PLC"],
                       idPatterns: [#"\bGB ?\d{3} ?\d{4} ?\d{2}\b"#], zones: ["Europe/London"]),
        ReceiptCountry(code: "IE", currency: "EUR", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+353",
                       addressWords: ["IRELAND", "DUBLIN", "CORK", "GALWAY"], languageWords: [], idPatterns: [#"\bIE ?\d{7}[A-Z]{1,2}\b"#],
                       zones: ["Europe/Dublin"]),
        ReceiptCountry(code: "DE", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+49",
                       addressWords: ["DEUTSCHLAND", "GERMANY", "STRASSE", "STR"],
                       languageWords: ["SUMME", "MWST", "RUCKGELD", "RUECKGELD", "GEGEBEN", "ZWISCHENSUMME", "GESAMTBETRAG", "UHRZEIT", "KASSE", "BRUTTO"],
                       legalForms: ["GMBH", "GMBH & CO. KG"], idPatterns: [#"\bDE ?\d{3} ?\d{3} ?\d{3}\b"#], zones: ["Europe/Berlin"], brands: ["ARAL"], ocrLanguage: "deu"),
        ReceiptCountry(code: "AT", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+43",
                       addressWords: ["OSTERREICH", "AUSTRIA", "WIEN"], languageWords: [], legalForms: ["GMBH"], idPatterns: [#"\bATU ?\d{8}\b"#],
                       zones: ["Europe/Vienna"], ocrLanguage: "deu"),
        ReceiptCountry(code: "FR", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+33",
                       addressWords: ["FRANCE", "PARIS", "CEDEX"],
                       languageWords: frenchWords,
                       legalForms: ["SARL", "SAS"], idPatterns: [#"\bFR ?[0-9A-Z]{2} ?\d{9}\b"#, #"\bSIRET\b"#], zones: ["Europe/Paris"], ocrLanguage: "fra"),
        ReceiptCountry(code: "NL", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+31",
                       addressWords: ["NEDERLAND", "AMSTERDAM"], languageWords: ["TOTAAL", "BTW", "TE BETALEN", "WISSELGELD"], legalForms: ["B.V"],
                       idPatterns: [#"\bNL ?\d{9}B\d{2}\b"#], zones: ["Europe/Amsterdam"], ocrLanguage: "nld"),
        ReceiptCountry(code: "IT", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+39",
                       addressWords: ["ITALIA"], languageWords: ["TOTALE", "CONTANTI", "SCONTRINO"], legalForms: ["S.R.L", "SRL"],
                       idPatterns: [#"\bIT ?\d{11}\b"#], zones: ["Europe/Rome"], brands: ["AGIP"], ocrLanguage: "ita"),
        ReceiptCountry(code: "ES", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+34",
                       addressWords: ["ESPANA", "MADRID", "BARCELONA"], languageWords: spanishWords, legalForms: ["S.L"],
                       idPatterns: [#"\bES ?[A-Z0-9]\d{7}[A-Z0-9]\b"#], zones: ["Europe/Madrid"], brands: ["REPSOL", "CEPSA"], ocrLanguage: "spa"),
        ReceiptCountry(code: "LT", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+370",
                       addressWords: ["LIETUVA", "VILNIUS", "KAUNAS"],
                       languageWords: ["MOKETI", "PVM", "KVITAS", "GRYNIEJI", "GRAZA", "KORTELE", "LITRAI", "DEGALAI"],
                       legalForms: ["UAB"], idPatterns: [#"\bLT ?\d{9,12}\b"#], zones: ["Europe/Vilnius"], brands: ["VIADA", "ORLEN"], ocrLanguage: "lit"),
        ReceiptCountry(code: "PL", currency: "PLN", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+48",
                       addressWords: ["POLSKA"], languageWords: ["PTU", "PARAGON FISKALNY", "RAZEM", "GOTOWKA", "RESZTA", "SPRZEDAZ"],
                       legalForms: ["SP. Z O.O", "SP Z OO"], idPatterns: [#"\bNIP\b[^0-9]{0,4}\d{3}-?\d{3}-?\d{2}-?\d{2}\b"#], zones: ["Europe/Warsaw"], brands: ["ORLEN", "LOTOS"], ocrLanguage: "pol"),
        ReceiptCountry(code: "JP", currency: "JPY", dayFirst: false, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+81",
                       addressWords: ["JAPAN", "東京都"], languageWords: ["合計", "お預り", "お釣り", "釣銭", "現金", "領収書"], zones: ["Asia/Tokyo"], brands: ["ENEOS", "IDEMITSU", "COSMO"], ocrLanguage: "jpn"),
        ReceiptCountry(code: "IN", currency: "INR", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+91",
                       addressWords: ["INDIA", "MAHARASHTRA", "KARNATAKA", "DELHI", "MUMBAI", "BANGALORE", "BENGALURU", "CHENNAI", "TAMIL NADU"],
                       languageWords: ["GSTIN"], idPatterns: [#"\b\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]\b"#], zones: ["Asia/Kolkata"], brands: ["INDIAN OIL", "BHARAT PETROLEUM", "HINDUSTAN PETROLEUM"]),
        ReceiptCountry(code: "MX", currency: "MXN", dollarSign: "MXN", dayFirst: true, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km",
                       phonePrefix: "+52", addressWords: ["CDMX", "JALISCO", "NUEVO LEON", "GUADALAJARA", "MONTERREY", "PUEBLA", "VERACRUZ"],
                       languageWords: spanishWords + ["RFC"], idPatterns: [#"\bRFC\b[^A-Z0-9]{0,4}[A-Z&]{3,4}-?\d{6}-?[A-Z0-9]{3}\b"#],
                       zones: ["America/Mexico_City", "America/Monterrey", "America/Tijuana"], brands: ["PEMEX"], ocrLanguage: "spa"),
        ReceiptCountry(code: "BR", currency: "BRL", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+55",
                       addressWords: ["BRASIL", "SAO PAULO", "RIO DE JANEIRO", "MINAS GERAIS"],
                       languageWords: ["CNPJ", "CUPOM FISCAL", "TROCO", "VALOR A PAGAR"], idPatterns: [#"\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b"#],
                       zones: ["America/Sao_Paulo"], brands: ["PETROBRAS", "IPIRANGA"], ocrLanguage: "por"),
        ReceiptCountry(code: "PT", currency: "EUR", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+351",
                       addressWords: ["PORTUGAL", "LISBOA"], languageWords: ["CONTRIBUINTE"], idPatterns: [#"\bPT ?\d{9}\b"#],
                       zones: ["Europe/Lisbon"], brands: ["GALP"], ocrLanguage: "por"),
        ReceiptCountry(code: "KR", currency: "KRW", dayFirst: false, decimalMark: ".", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+82",
                       addressWords: ["KOREA", "SEOUL", "서울"], languageWords: ["합계", "부가세", "영수증"], zones: ["Asia/Seoul"], ocrLanguage: "kor"),
        ReceiptCountry(code: "ID", currency: "IDR", dayFirst: true, decimalMark: ",", printedMinorDigits: 0, fuelUnit: .litre, distanceUnit: "km",
                       phonePrefix: "+62",
                       addressWords: ["INDONESIA", "JAKARTA", "SURABAYA", "BANDUNG", "MEDAN", "SEMARANG", "YOGYAKARTA", "DENPASAR", "BALI", "BANTEN",
                                      "JAWA BARAT", "JAWA TENGAH", "JAWA TIMUR", "SUMATERA", "KALIMANTAN", "SULAWESI", "KECAMATAN", "KELURAHAN", "KABUPATEN"],
                       languageWords: ["KEMBALIAN", "RUPIAH", "NPWP", "SPBU", "PPN", "PERTALITE", "PERTAMAX", "DEXLITE", "BIOSOLAR"] + malayWords,
                       legalForms: ["TBK"], idPatterns: [#"\b\d{2}\.\d{3}\.\d{3}\.\d-\d{3}\.\d{3}\b"#],
                       zones: ["Asia/Jakarta", "Asia/Pontianak", "Asia/Makassar", "Asia/Jayapura"], brands: ["PERTAMINA"], ocrLanguage: "ind"),
        ReceiptCountry(code: "MA", currency: "MAD", dayFirst: true, decimalMark: ",", fuelUnit: .litre, distanceUnit: "km", phonePrefix: "+212",
                       addressWords: ["MAROC", "MOROCCO", "CASABLANCA", "RABAT", "MARRAKECH", "TANGER", "FES", "AGADIR", "MEKNES", "OUJDA", "KENITRA", "TETOUAN"],
                       languageWords: frenchWords, legalForms: ["SARL", "SARL AU"], idPatterns: [#"\bICE\b[^0-9]{0,6}\d{15}\b"#],
                       zones: ["Africa/Casablanca"], brands: ["AFRIQUIA", "WINXO", "PETROM", "ZIZ"], ocrLanguage: "fra"),
    ]

    /// Words of Spanish-language receipts: they name every Spanish-speaking country of the table
    /// (Spain, Colombia, Mexico), which settles what those share (the day first, `spa`) and not
    /// what they do not (the currency, the decimal mark).
    static let spanishWords = ["EFECTIVO", "TOTAL A PAGAR", "GRACIAS POR SU COMPRA", "FACTURA", "FECHA"]

    /// Words of French-language receipts: France's and Morocco's, which share the day first, the
    /// decimal comma and `fra`, not the currency.
    static let frenchWords = ["TTC", "NET A PAYER", "ESPECES", "RENDU", "MONNAIE", "CARBURANT"]

    /// Words Malay and Indonesian receipts both print: they name Malaysia and Indonesia, which
    /// share the day first and not the currency, the decimal mark or the OCR model.
    static let malayWords = ["JUMLAH", "TUNAI", "KEMBALI", "TERIMA KASIH"]

    /// Brands count in this many lines from the top: the merchant's own heading, not a card
    /// scheme or a loyalty programme printed in the footer.
    static let brandLines = 8

    /// The row of a country code.
    public static func named(_ code: String) -> ReceiptCountry? { all.first { $0.code == code } }

    /// Compiled `idPatterns`, once: the ones that compile; those that do not are in
    /// `idPatternFailures`, which the tests require empty (`ReceiptPatternFailure`).
    static let compiledIDPatterns: [String: [NSRegularExpression]] = idPatternTable.compiled
    /// Every id pattern of `all` that does not compile, with its country.
    static let idPatternFailures: [ReceiptPatternFailure] = idPatternTable.failures

    private static let idPatternTable = compile(all)

    static func compile(_ countries: [ReceiptCountry]) -> (compiled: [String: [NSRegularExpression]], failures: [ReceiptPatternFailure]) {
        var compiled: [String: [NSRegularExpression]] = [:], failures: [ReceiptPatternFailure] = []
        for c in countries {
            var list: [NSRegularExpression] = []
            for pattern in c.idPatterns {
                switch ReceiptPatternFailure.compile(pattern, owner: "ReceiptCountry \(c.code) idPatterns") {
                case let .success(re): list.append(re)
                case let .failure(f): failures.append(f)
                }
            }
            compiled[c.code] = list
        }
        return (compiled, failures)
    }
}
