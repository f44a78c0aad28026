import Foundation
import FleetCore

/// Conversions to the warehouse's SI units.
enum SamsaraUnits {
    static let metresPerSecondPerMph = Units.metresPerMile / 3600
}
