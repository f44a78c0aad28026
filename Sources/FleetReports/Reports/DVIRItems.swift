/// The parts and accessories 49 CFR 396.11(a)(1) lists for the driver's report, by the component
/// codes the importers give a defect (`DVIRImporter.component`, which Samsara defects share).
///
/// WHY beside the source's flag and not instead of it: the list says what the report covers, so
/// a cracked mirror or a missing extinguisher pin is an item of the rule whatever the telematics
/// vendor calls it; whether a defect "would be likely to affect the safety of operation"
/// (396.11(a)(3), the repair-before-driving rule) stays the driver's and mechanic's judgement,
/// which is the source's flag. Reports show both.
enum DVIRItems {
    /// Component code → the item as the rule words it.
    static let items: [String: String] = [
        "service_brakes": "service brakes including trailer brake connections",
        "parking_brake": "parking brake",
        "steering": "steering mechanism",
        "lighting": "lighting devices and reflectors",
        "tires": "tires",
        "horn": "horn",
        "wipers": "windshield wipers",
        "mirrors": "rear vision mirrors",
        "coupling": "coupling devices",
        "wheels_rims": "wheels and rims",
        "emergency_equipment": "emergency equipment",
    ]

    /// The 396.11(a)(1) item a defect's component is, or nil when it is none of them ("other",
    /// or a code this list does not hold).
    static func item(_ component: String) -> String? { items[component] }

    /// The register's text: the item, or the component and "not a listed item".
    static func text(_ component: String) -> String { item(component) ?? "\(component): not a listed item" }
}
