import Foundation

/// The profiles FleetKit ships, for layouts whose format is published; each cites its document.
/// Kept as text here (not files found at run time) so that the `fleetkit` binary carries them
/// wherever it is installed; `fleetkit profile list` shows them as `shipped:<name>`.
enum ShippedProfiles {
    static let texts: [(name: String, yaml: String)] = [
        ("geotab-generic-fuel", geotabGenericFuel),
        ("loadsmart-fuel-template", loadsmartFuelTemplate),
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

    /// Loadsmart Carrier TMS's fuel template, the CSV it asks for to import a statement from
    /// any fuel-card provider ("Any other"): nine columns whose names must not change, the date
    /// MM/DD/YYYY and the time of day in UTC. The page states no unit for Quantity and no
    /// currency for Amount, so Quantity is not mapped (FleetKit never guesses a unit: a fleet
    /// that knows its cards' unit adds it in its own copy) and Amount is in the warehouse's
    /// currency, marked assumed. Invoice is the statement's invoice, not a transaction id.
    static let loadsmartFuelTemplate = """
    name: loadsmart-fuel-template
    version: 1
    target: fuel_purchases
    citation: >-
      Loadsmart, "Import fuel statements with template" (community.loadsmart.com/hc/en-us/articles/15134809972627):
      columns Transaction Date (MM/DD/YYYY), Transaction Time (UTC, e.g. 14:49), Driver Name, Unit,
      Location State/Province (2-letter), Product Code, Quantity (no unit stated), Amount (no "$"), Invoice.
      Driver Name, Quantity and Invoice are not mapped: FleetKit keeps no driver on a purchase, the
      quantity's unit is not published, and an invoice number is shared by a statement's transactions.
    encoding: UTF-8
    decimal: "."
    grouping: none
    date_format: MM/DD/YYYY
    time_format: HH:mm
    zone: UTC
    signature: [Transaction Date, Transaction Time, Driver Name, Unit, Location State/Province, Product Code, Quantity, Amount, Invoice]
    columns:
      Transaction Date: date
      Transaction Time: time
      Unit: unit_number
      Location State/Province: merchant_state
      Product Code: product_code
      Amount: total
    """
}
