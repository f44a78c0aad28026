import Foundation

/// The profiles FleetKit ships, for layouts whose format is published; each cites its document.
/// Kept as text here (not files found at run time) so that the `fleetkit` binary carries them
/// wherever it is installed; `fleetkit profile list` shows them as `shipped:<name>`.
enum ShippedProfiles {
    static let texts: [(name: String, yaml: String)] = [
        ("geotab-generic-fuel", geotabGenericFuel),
    ]

    static func all() throws -> [Profile] {
        try texts.map { try ProfileFile.parse($0.yaml, path: "shipped:\($0.name)") }
    }

    /// Geotab's generic fuel-card file, the layout MyGeotab's Fuel Transaction Import add-in
    /// reads as "MyGeotab file type" (columns A–O). Units as the add-in shows them before
    /// importing: 'Date (UTC)', 'Volume Added (litres)', 'Odometer (km)'.
    static let geotabGenericFuel = """
    name: geotab-generic-fuel
    version: 1
    target: fuel_purchases
    citation: >-
      Geotab, Fuel Transaction Import add-in (github.com/Geotab/addin-fuel-transaction-import):
      app/generic_fuel_card_csv_file_sample.csv (the template's header, columns A-O) and
      app/scripts/main.js (the 'geotab' parser: A VIN, B Description, F Date Time, G Volume,
      H Cost, I Currency Code, J Odometer; shown as Date (UTC), Volume Added (litres), Odometer (km)).
      Serial Number, Licence Plate, Comments, the coordinates, Driver Name and the user-defined
      fields are not mapped: FleetKit names the vehicle by VIN and keeps no purchase location.
    encoding: UTF-8
    decimal: "."
    grouping: none
    signature: [VIN, Description, Serial Number, Licence Plate, Date Time, Volume, Cost, Currency Code, Odometer, Driver Name]
    columns:
      VIN: vin
      Description: vehicle_description
      Date Time: datetime
      Volume: {field: volume, unit: L}
      Cost: total
      Currency Code: currency
      Odometer: {field: odometer, unit: km}
    """
}
