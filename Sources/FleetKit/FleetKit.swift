// The FleetKit library: one import for the whole toolkit.
@_exported import FleetCore
@_exported import FleetWarehouse
@_exported import FleetImport
@_exported import FleetOCR
@_exported import FleetReports
