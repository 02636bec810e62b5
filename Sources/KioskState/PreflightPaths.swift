/// Where the preflight looks for what is not in the configuration: the package's system files
/// (`/etc/recorder`: `tls/*.crt` for nginx, `wifi/hostapd.conf` for the booth's Wi-Fi), the
/// programs that say whether the clock and the unit are well, the unit's name, and the input
/// devices' sysfs. A test points them at its own.
package struct PreflightPaths: Sendable {
    package var systemDirectory = "/etc/recorder"
    package var systemctl = "/usr/bin/systemctl"
    package var timedatectl = "/usr/bin/timedatectl"
    package var unit = "recorder.service"
    package var inputSysfs = "/sys/class/input"

    package init(systemDirectory: String = "/etc/recorder") {
        self.systemDirectory = systemDirectory
    }

    /// The TLS certificates' directory (nginx-recorder.conf's booth.crt, nginx-wifi-tls.conf's share.crt).
    package var tlsDirectory: String { systemDirectory + "/tls" }
    /// The booth's access point's file (systemd/wifi/hostapd.conf, installed).
    package var hostapd: String { systemDirectory + "/wifi/hostapd.conf" }
}
