// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FleetKit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fleetkit", targets: ["fleetkit"]),
        .library(name: "FleetKit", targets: ["FleetKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        // System libraries (Debian: libxlsxwriter-dev, libtesseract-dev, libleptonica-dev).
        .systemLibrary(name: "CXlsxWriter", pkgConfig: "xlsxwriter",
                       providers: [.apt(["libxlsxwriter-dev"])]),
        // zlib inflates the entries of .xlsx workbooks (a stream, with bounds; Debian: zlib1g-dev).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract",
                       providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept",
                       providers: [.apt(["libleptonica-dev"])]),
        // libpq, PostgreSQL's own client (docs/ARCHITECTURE.md "Engine boundary": chosen over
        // postgres-nio by build time; Debian: libpq-dev).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        .target(name: "FleetCore"),
        .target(name: "FleetWarehouse", dependencies: [
            "FleetCore", "CLibPQ",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        .target(name: "FleetOCR", dependencies: ["FleetCore", "CTesseract", "CLeptonica"]),
        .target(name: "FleetImport", dependencies: ["FleetCore", "FleetWarehouse", "FleetOCR", "CZlib", .product(name: "Yams", package: "Yams")]),
        .target(name: "FleetReports", dependencies: ["FleetCore", "FleetWarehouse", "CXlsxWriter"]),
        .target(name: "FleetSample", dependencies: ["FleetCore"]),
        .target(name: "FleetNightly", dependencies: ["FleetCore", "FleetWarehouse", "FleetImport", "FleetReports",
                                                    .product(name: "Yams", package: "Yams"), .product(name: "GRDB", package: "GRDB.swift")]),
        .target(name: "FleetKit", dependencies: [
            "FleetCore", "FleetWarehouse", "FleetImport", "FleetOCR", "FleetReports",
        ]),
        .executableTarget(name: "fleetkit", dependencies: [
            "FleetKit", "FleetSample", "FleetNightly",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Fixtures are read by path (#filePath), never as bundle resources: excluded, so the
        // build does not warn about hundreds of "unhandled" files.
        .target(name: "FleetTestSupport", dependencies: ["FleetKit", .product(name: "GRDB", package: "GRDB.swift")], path: "Tests/FleetTestSupport"),
        .testTarget(name: "FleetCoreTests", dependencies: ["FleetCore", "FleetSample", "FleetTestSupport"]),
        .testTarget(name: "FleetWarehouseTests", dependencies: ["FleetWarehouse", "FleetSample", "FleetTestSupport"]),
        .testTarget(name: "FleetImportTests", dependencies: ["FleetImport", "FleetSample", "FleetTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FleetOCRTests", dependencies: ["FleetOCR", "FleetTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FleetReportsTests", dependencies: ["FleetReports", "FleetSample", "FleetTestSupport"], exclude: ["Golden", "Fixtures"]),
        .testTarget(name: "FleetNightlyTests", dependencies: ["FleetNightly", "FleetTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FleetSampleTests", dependencies: ["FleetSample", "FleetTestSupport"]),
        .testTarget(name: "fleetkitTests", dependencies: ["fleetkit", "FleetTestSupport"], exclude: ["Fixtures"]),
    ]
)
