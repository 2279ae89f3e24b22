/// Names the resource bundle SwiftPM builds from this folder, so the kit can find it without `Bundle.module`.
public enum FixtureBundle {
    /// The bundle's base name next to the built executable (`.resources` on Linux, `.bundle` on macOS).
    public static let name = "expense-log_ExpenseLogFixtures"
    /// The fixture files this folder ships.
    public static let files = ["fetch.json", "register.json"]
    /// The web app's script (`expense-log server script`), in the same bundle.
    public static let serverScript = "server/Code.gs"
}
