/// The version `recorder --version`, the kiosk's status and its metrics report.
public enum RecorderVersion {
    public static let string = "0.5.0"
}
