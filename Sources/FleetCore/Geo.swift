import Foundation

/// Distances on the Earth's surface.
public enum Geo {
    /// The IUGG mean Earth radius, 6,371,008.8 m: the haversine distance with it is within 0.5 %
    /// of the ellipsoidal distance anywhere, far below GPS noise over a trip.
    public static let earthRadius = 6_371_008.8

    /// Great-circle (haversine) distance in metres between two WGS 84 points in degrees.
    public static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
