# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
# The booth's own Wi-Fi (docs/venue.md) on the kernel's mac80211_hwsim: two software radios that hear
# each other. On one, the shipped configuration (systemd/wifi/: hostapd, dnsmasq, nginx, run with
# the units' own command lines, and nginx with the share locations and http-level names it shares
# with the event's network, systemd/nginx-recorder-*.conf); the other is moved into a network
# namespace and is a guest's phone:
# wpa_supplicant joins with the password the kiosk's Wi-Fi code carries (the code read by zbarimg,
# the text unescaped here), udhcpc takes an address, and curl, with the phone's DNS, fetches what
# a phone would. The store is an S3 that never answers: a venue with no internet at all, so the
# guest's page and video can only come from the booth's own copy.
section "the booth's own Wi-Fi (mac80211_hwsim: hostapd, dnsmasq, nginx; a phone in a network namespace)"
WIFI=$HERE/device/wifi.py
wifi_failed_before=$fail
SHIPPED=$(cd "$HERE/../.." && pwd)/systemd/wifi
SHIPPED_NGINX=$(cd "$HERE/../.." && pwd)/systemd
W=$T/wifi
mkdir -p "$W/etc" "$W/run" "$W/tls" "$W/nginx" && chmod 755 "$W" "$W/etc" "$W/tls"
KW=http://127.0.0.1:8093
# A name and a password with every character a Wi-Fi code escapes (\ ; , : ") and a $.
SSID='Booth; "Wi,Fi": A\B'
PASS='p;a,s:s"w\rd $$ ok'
NAME=videos.example.test
ip link set lo up 2>/dev/null || busybox ip link set lo up
# (every program this section starts, stopped at its end whatever happened)
wifi_pids=()
wifi_stop() { for p in "${wifi_pids[@]}"; do kill "$p" 2>/dev/null; done; for p in "${wifi_pids[@]}"; do wait "$p" 2>/dev/null; done; wifi_pids=(); }
# wait_for FILE PATTERN SECONDS: FILE says PATTERN within SECONDS.
wait_for() { for _ in $(seq 1 $(($3 * 5))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done; return 1; }
# The phone's network namespace is a process's (`ip netns add` needs /run, read-only here): in it
# (pn), and in it with the phone's own DNS server, the one DHCP gave it, as its resolv.conf (phone).
pn() { nsenter -t "$PHONE_NS" -n "$@"; }
phone() { nsenter -t "$PHONE_NS" -n unshare -m sh -c 'mount --bind "$0" /etc/resolv.conf && exec "$@"' "$W/phone-resolv.conf" "$@"; }

phys=$(ls /sys/class/ieee80211 2>/dev/null | sort)
AP_PHY=$(echo "$phys" | sed -n 1p); PHONE_PHY=$(echo "$phys" | sed -n 2p)
check "mac80211_hwsim gives two radios ($(echo $phys))" [ -n "$PHONE_PHY" ]
AP_IF=$(ls "/sys/class/ieee80211/$AP_PHY/device/net" 2>/dev/null | head -1)
PHONE_IF=$(ls "/sys/class/ieee80211/$PHONE_PHY/device/net" 2>/dev/null | head -1)

# The kiosk: the Wi-Fi's settings, share links under a public https name, an S3 store that never
# answers (port 9: nothing there), so every post stays queued, and the proxy's socket, which nginx
# reaches it on (kiosk.proxy_socket, as the shipped recorder.conf sets it).
RECORDER_KIOSK_PROXY_SOCKET=$W/run/proxy.sock RECORDER_KIOSK_WIFI_SSID=$SSID RECORDER_KIOSK_WIFI_PASSWORD=$PASS RECORDER_SHARE_BASE_URL="https://$NAME/s/{token}" \
RECORDER_BACKEND=s3 RECORDER_S3_ENDPOINT=http://127.0.0.1:9 RECORDER_S3_BUCKET=booth AWS_ACCESS_KEY_ID=booth AWS_SECRET_ACCESS_KEY=never-used-here \
RECORDER_SHOOT_SIZE=320x240 RECORDER_SHOOT_FPS=15 RECORDER_SHOOT_PRESET=ultrafast RECORDER_AUDIO_DEVICE=none \
  "$REC" kiosk --device testsrc --listen 127.0.0.1:8093 --seconds 2 --countdown 0 --workspace "$T/wws" --outbox "$T/wob" \
  > "$T/wifi-kiosk.log" 2>&1 &
KPID=$!; wifi_pids+=("$KPID")
check "the kiosk starts with kiosk.wifi_ssid and kiosk.wifi_password set" \
  python3 "$HERE/button.py" wait "$KW" "s['state'] == 'idle' and s['booth']['wifi'] is not None" 180

# The Wi-Fi code, as the thank-you screen shows it (the kiosk's route), read by zbarimg.
curl -fsS -o "$W/wifi-qr.svg" "$KW/api/wifi/qr.svg"
code=$(python3 "$WIFI" qr "$W/wifi-qr.svg")
check "the Wi-Fi code reads (zbarimg) as the standard WIFI: text, every \\ ; , : \" escaped: $code" \
  [ "$code" = 'WIFI:T:WPA;S:Booth\; \"Wi\,Fi\"\: A\\B;P:p\;a\,s\:s\"w\\rd $$ ok;;' ]
python3 "$WIFI" join "$code" > "$W/joined"
{ IFS= read -r QR_T; IFS= read -r QR_SSID; IFS= read -r QR_PASS; } < "$W/joined"
check "a phone's reading of it gives back the name and the password (T=$QR_T)" \
  [ "$QR_T" = WPA ] && [ "$QR_SSID" = "$SSID" ] && [ "$QR_PASS" = "$PASS" ]

# A guest's post: shot and posted through the API, as the booth's page does.
curl -fsS -o /dev/null -H 'Content-Type: application/json' -d '{}' "$KW/api/shoot"
python3 "$HERE/button.py" wait "$KW" "s['state'] == 'idle' and s['currentShot'] is not None" 180 > /dev/null
shot=$(curl -fsS "$KW/api/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["currentShot"]["id"])')
post=$(curl -fsS -H 'Content-Type: application/json' -d "{\"id\":\"$shot\",\"caption\":\"over the booth Wi-Fi\"}" "$KW/api/post" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
queued=$(ls -d "$T"/wob/queue/*-"$post" 2>/dev/null | head -1)
check "the post ($post) waits in the outbox: the store never answers" [ -f "$queued/video.mp4" ]
link=$(curl -fsS "$KW/api/posts/$post/share" | python3 -c 'import json,sys; print(json.load(sys.stdin)["shareURL"])')
check "its link is given at once, before any upload: $link" grep -q "^https://$NAME/s/[A-Za-z0-9]\{22\}$" <<< "$link"
curl -fsS -o "$W/post-qr.svg" "$KW/api/posts/$post/qr.svg"
check "the thank-you's second code reads (zbarimg) as that link" [ "$(python3 "$WIFI" qr "$W/post-qr.svg")" = "$link" ]
path=${link#https://$NAME}

# The booth's side: the shipped files, with this test's paths, name and password put in.
fill() { python3 "$WIFI" fill "$SHIPPED/$1" "$W/etc/$2" "${@:3}"; }
paths=(/etc/recorder/wifi "$W/etc" /run/recorder-wifi "$W/run")
fill hostapd.conf hostapd.conf "ssid=recorder-booth" "ssid=$SSID" "wpa_passphrase=change-this-password" "wpa_passphrase=$PASS"
fill hostapd-open.conf hostapd-open.conf "ssid=recorder-booth" "ssid=$SSID"
fill dnsmasq.conf dnsmasq.conf
fill probes-online.conf probes-online.conf
fill probes-portal.conf probes-portal.conf
python3 "$WIFI" fill "$SHIPPED_NGINX/nginx-recorder-http.conf" "$W/etc/recorder-http.conf" unix:/run/recorder/proxy.sock "unix:$W/run/proxy.sock"
python3 "$WIFI" fill "$SHIPPED_NGINX/nginx-recorder-share.conf" "$W/etc/recorder-share.conf" /var/log/nginx/access.log "$W/share-access.log"
fill welcome.html welcome.html
snippet=(/etc/nginx/snippets/recorder-share.conf "$W/etc/recorder-share.conf")
fill nginx-wifi.conf nginx-wifi.conf "${paths[@]:0:2}" "${snippet[@]}"
fill nginx-wifi-tls.conf nginx-wifi-tls.conf /etc/recorder/tls "$W/tls" "${snippet[@]}"
chmod 644 "$W"/etc/*
# The public name's certificate, from a certificate authority of the test's own (the phone trusts it,
# as every phone trusts the one that signed a real name's).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=recorder test CA" \
  -keyout "$W/tls/ca.key" -out "$W/tls/ca.crt" 2> /dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$NAME" -keyout "$W/tls/share.key" -out "$W/tls/share.csr" 2> /dev/null
printf 'subjectAltName=DNS:%s\n' "$NAME" > "$W/tls/san.ext"
openssl x509 -req -in "$W/tls/share.csr" -CA "$W/tls/ca.crt" -CAkey "$W/tls/ca.key" -CAcreateserial -days 2 -extfile "$W/tls/san.ext" \
  -out "$W/tls/share.crt" 2> /dev/null
cat > "$W/nginx.conf" <<EOF
pid $W/nginx.pid;
error_log $W/nginx-error.log;
events {}
http {
    access_log $W/nginx-access.log;
    include $W/etc/recorder-http.conf;
    client_body_temp_path $W/nginx/body; proxy_temp_path $W/nginx/proxy; fastcgi_temp_path $W/nginx/fastcgi;
    uwsgi_temp_path $W/nginx/uwsgi; scgi_temp_path $W/nginx/scgi;
    include $W/etc/nginx-wifi.conf;
    include $W/etc/nginx-wifi-tls.conf;
}
EOF

unit() { python3 "$WIFI" exec "$SHIPPED/$1" "$2" "$AP_IF" "${paths[@]}"; }
# shellcheck disable=SC2046  # the unit's command line, split into words as systemd splits it
$(unit recorder-wifi@.service ExecStartPre)
# (stdbuf: hostapd's and wpa_supplicant's lines reach their logs as they are written)
stdbuf -oL $(unit recorder-wifi@.service ExecStart) > "$W/hostapd.log" 2>&1 &
wifi_pids+=($!)
check "hostapd starts the network from the shipped hostapd.conf on $AP_IF (recorder-wifi@$AP_IF's command)" wait_for "$W/hostapd.log" AP-ENABLED 60
check "... an access point on channel 6 (iw: $(iw dev "$AP_IF" info | grep -E 'type|channel' | xargs))" \
  sh -c "iw dev '$AP_IF' info | grep -q 'type AP' && iw dev '$AP_IF' info | grep -q 'channel 6 '"
$(unit recorder-wifi-dns@.service ExecStart) > "$W/dnsmasq.log" 2>&1 &
wifi_pids+=($!)
nginx -t -c "$W/nginx.conf" > "$W/nginx-t.log" 2>&1
check "nginx takes the shipped nginx-wifi.conf and nginx-wifi-tls.conf (nginx -t)" grep -q "test is successful" "$W/nginx-t.log"
nginx -c "$W/nginx.conf"
# (asked from the booth itself a question would arrive on lo, which dnsmasq does not serve: the
# phone asks below)
check "dnsmasq serves the Wi-Fi alone (recorder-wifi-dns@$AP_IF's command)" wait_for "$W/dnsmasq.log" "sockets bound exclusively to interface $AP_IF" 60

# The phone's side only when the booth's is up (else each of its waits would run out, for minutes).
if [ "$fail" -ne "$wifi_failed_before" ]; then
  bad "the booth's side did not come up (above): the phone's checks were not run"
else
# The phone: its radio in a network namespace of its own (a radio moves with its phy).
unshare --net sleep 100000 &
PHONE_NS=$!; wifi_pids+=("$PHONE_NS")
sleep 0.5
iw phy "$PHONE_PHY" set netns "$PHONE_NS"
pn ip link set lo up
pn ip link set "$PHONE_IF" up
check "the phone's radio ($PHONE_PHY, $PHONE_IF) is in its own namespace, the booth's is not" \
  sh -c "nsenter -t $PHONE_NS -n ip link show $PHONE_IF > /dev/null && ! ip link show $PHONE_IF > /dev/null 2>&1"
# join PASSWORD LOG: wpa_supplicant on the phone, for the network the code named.
join() {
  printf 'ctrl_interface=%s\nnetwork={\n  ssid=%s\n  key_mgmt=WPA-PSK\n  %s\n}\n' "$W/wpa-ctrl" "$(python3 "$WIFI" hex "$QR_SSID")" \
    "$(wpa_passphrase "$QR_SSID" "$1" | grep -E '^\s*psk=[0-9a-f]{64}' | tr -d '\t ')" > "$W/phone.conf"
  # (nsenter and stdbuf exec what they run: $! is wpa_supplicant itself, which a kill ends)
  nsenter -t "$PHONE_NS" -n stdbuf -oL wpa_supplicant -D nl80211 -i "$PHONE_IF" -c "$W/phone.conf" > "$2" 2>&1 &
  PHONE_PID=$!; wifi_pids+=("$PHONE_PID")
}
# A wrong password first: refused, never connected.
join 'not-the-password' "$W/wrong.log"
wait_for "$W/wrong.log" 'reason=WRONG_KEY\|4-Way Handshake failed' 60
check "with a wrong password the phone does not join: its key is refused, it is never connected" \
  sh -c "grep -q 'reason=WRONG_KEY\\|4-Way Handshake failed' '$W/wrong.log' && ! grep -q CTRL-EVENT-CONNECTED '$W/wrong.log'"
kill "$PHONE_PID" 2>/dev/null; wait "$PHONE_PID" 2>/dev/null
check "... and its wpa_supplicant is gone before the phone tries again" sh -c "! kill -0 $PHONE_PID 2>/dev/null"
join "$QR_PASS" "$W/phone.log"
check "with the password the Wi-Fi code carries, the phone joins" wait_for "$W/phone.log" CTRL-EVENT-CONNECTED 60

# DHCP: busybox's udhcpc, its script noting what the booth offered and taking the address.
cat > "$W/udhcpc.sh" <<EOF
#!/bin/sh
[ "\$1" = bound ] || exit 0
echo "ip=\$ip mask=\$mask router=\$router dns=\$dns" > "$W/lease"
ip address add "\$ip/\$mask" dev "\$interface"
echo "nameserver \$dns" > "$W/phone-resolv.conf"
EOF
chmod 755 "$W/udhcpc.sh"
pn busybox udhcpc -i "$PHONE_IF" -f -q -n -t 10 -T 3 -s "$W/udhcpc.sh" > "$W/udhcpc.log" 2>&1
lease=$(cat "$W/lease" 2>/dev/null)
check "dnsmasq gives the phone an address, the booth as its router and its DNS server ($lease)" \
  grep -Eq '^ip=10\.42\.0\.([1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|250) mask=24 router=10\.42\.0\.1 dns=10\.42\.0\.1$' <<< "$lease"
# Any name is the booth; Windows's own name gets Microsoft's address.
answers=""; elsewhere=0
for name in "$NAME" connectivitycheck.gstatic.com captive.apple.com www.msftconnecttest.com anything.example.org; do
  address=$(phone getent ahostsv4 "$name" | awk 'NR == 1 { print $1 }')
  answers+="$name=$address "; [ "$address" = 10.42.0.1 ] || elsewhere=$((elsewhere + 1))
done
check "on the phone, every name is the booth: $answers" [ "$elsewhere" -eq 0 ]
check "dns.msftncsi.com is Microsoft's own address (Windows's DNS check)" \
  [ "$(phone getent ahostsv4 dns.msftncsi.com | awk 'NR == 1 { print $1 }')" = 131.107.255.255 ]

# The probes, answered "online" (probes-online.conf, the default): each platform's own check.
phone_probe() { phone curl -s -o "$W/phone_probe.body" -w '%{http_code}' --max-time 20 "$1"; }
status=$(phone_probe http://connectivitycheck.gstatic.com/generate_204)
check "Android's check: http://connectivitycheck.gstatic.com/generate_204 is 204, empty (status $status)" \
  sh -c "[ '$status' = 204 ] && [ ! -s '$W/phone_probe.body' ]"
status=$(phone_probe http://clients3.google.com/generate_204)
check "... and clients3.google.com's (status $status)" [ "$status" = 204 ]
status=$(phone_probe http://captive.apple.com/hotspot-detect.html)
check "Apple's check: http://captive.apple.com/hotspot-detect.html is 200 and says Success" sh -c "[ '$status' = 200 ] && grep -q '<BODY>Success</BODY>' '$W/phone_probe.body'"
status=$(phone_probe http://www.msftconnecttest.com/connecttest.txt)
check "Windows's check: http://www.msftconnecttest.com/connecttest.txt is 'Microsoft Connect Test'" \
  sh -c "[ '$status' = 200 ] && [ \"\$(cat '$W/phone_probe.body')\" = 'Microsoft Connect Test' ]"
status=$(phone_probe http://anything.example.org/some/page)
check "any other address gets the booth's welcome page, not the kiosk (status $status)" \
  sh -c "[ '$status' = 200 ] && grep -q \"video booth's Wi-Fi\" '$W/phone_probe.body'"
status=$(phone_probe http://10.42.0.1/api/status)
check "the kiosk's API is not on the Wi-Fi: /api/status is the welcome page ($status)" \
  sh -c "[ '$status' = 200 ] && grep -q \"video booth's Wi-Fi\" '$W/phone_probe.body' && ! grep -q '\"state\"' '$W/phone_probe.body'"

# The other answer, probes-portal.conf: every check sent to the welcome page, so a phone opens its
# sign-in sheet there.
sed -i "s#$W/etc/probes-online.conf#$W/etc/probes-portal.conf#" "$W/etc/nginx-wifi.conf"
nginx -c "$W/nginx.conf" -s reload 2> /dev/null
for _ in $(seq 1 50); do [ "$(phone_probe http://connectivitycheck.gstatic.com/generate_204)" = 302 ] && break; sleep 0.2; done
portal=""
for url in http://connectivitycheck.gstatic.com/generate_204 http://captive.apple.com/hotspot-detect.html http://www.msftconnecttest.com/connecttest.txt; do
  portal+="$(phone curl -s -o /dev/null -w '%{http_code}>%{redirect_url}' --max-time 20 "$url") "
done
check "portal answers: each check is a 302 to the booth's welcome page ($portal)" \
  [ "$portal" = "302>http://10.42.0.1/ 302>http://10.42.0.1/ 302>http://10.42.0.1/ " ]
status=$(phone_probe http://10.42.0.1/)
check "... which says what the network is for ($status)" sh -c "[ '$status' = 200 ] && grep -q \"video booth's Wi-Fi\" '$W/phone_probe.body'"
sed -i "s#$W/etc/probes-portal.conf#$W/etc/probes-online.conf#" "$W/etc/nginx-wifi.conf"
nginx -c "$W/nginx.conf" -s reload 2> /dev/null

# The guest's link: its public https name is the booth here, with a certificate the phone trusts.
page=$(phone curl -s --cacert "$W/tls/ca.crt" -w '\n%{http_code}' --max-time 30 "$link")
check "the link opens the share page on the booth's Wi-Fi, over https with the name's certificate" \
  sh -c "echo \"\$0\" | tail -n 1 | grep -qx 200 && echo \"\$0\" | grep -q 'over the booth Wi-Fi' && echo \"\$0\" | grep -q '$path/video.mp4'" "$page"
phone curl -s --cacert "$W/tls/ca.crt" --max-time 120 -o "$W/phone-video.mp4" "$link/video.mp4"
check "its video, fetched by the phone through nginx, is the queued video byte for byte (no internet at all)" cmp -s "$W/phone-video.mp4" "$queued/video.mp4"
ranged=$(phone curl -s --cacert "$W/tls/ca.crt" -r 100-1099 -o "$W/phone-part" -w '%{http_code}' --max-time 60 "$link/video.mp4")
check "a range of it (as a phone's player asks) is those bytes ($ranged)" \
  sh -c "[ '$ranged' = 206 ] && tail -c +101 '$queued/video.mp4' | head -c 1000 | cmp -s - '$W/phone-part'"
plain=$(phone curl -s -o "$W/phone-video2.mp4" -w '%{http_code}' --max-time 120 "http://10.42.0.1$path/video.mp4")
check "the booth's own address works too, over http (http://10.42.0.1$path)" sh -c "[ '$plain' = 200 ] && cmp -s '$W/phone-video2.mp4' '$queued/video.mp4'"
untrusted=$(phone curl -s -o /dev/null -w '%{http_code}' --max-time 30 "$link" 2>&1)
check "without the name's certificate authority the phone refuses the page (a wrong certificate is never accepted)" [ "$untrusted" = 000 ]
token=${link##*/}
check "nginx's access log on the Wi-Fi names the phone ($(grep -o '^10\.42\.0\.[0-9]*' "$W/share-access.log" | sort -u | xargs)) and the link as /s/<token>, never the token" \
  sh -c "grep -q '^10\.42\.0\.[0-9]* .*\"GET /s/<token>/video.mp4\"' '$W/share-access.log' && ! grep -q '$token' '$W/share-access.log'"
nottoken=$(phone curl -s --cacert "$W/tls/ca.crt" -o /dev/null -w '%{http_code}' --max-time 30 "https://$NAME/s/AAAAAAAAAAAAAAAAAAAAAA")
check "a made-up token opens nothing ($nottoken)" [ "$nottoken" = 404 ]

# An open network (hostapd-open.conf) with T:nopass: the phone joins with no key.
kill "$PHONE_PID" 2>/dev/null; wait "$PHONE_PID" 2>/dev/null
kill "${wifi_pids[1]}" 2>/dev/null; wait "${wifi_pids[1]}" 2>/dev/null
stdbuf -oL /usr/sbin/hostapd -i "$AP_IF" "$W/etc/hostapd-open.conf" > "$W/hostapd-open.log" 2>&1 &
wifi_pids+=($!)
check "hostapd starts the open network from hostapd-open.conf" wait_for "$W/hostapd-open.log" AP-ENABLED 60
printf 'network={\n  ssid=%s\n  key_mgmt=NONE\n}\n' "$(python3 "$WIFI" hex "$SSID")" > "$W/phone-open.conf"
nsenter -t "$PHONE_NS" -n stdbuf -oL wpa_supplicant -D nl80211 -i "$PHONE_IF" -c "$W/phone-open.conf" > "$W/phone-open.log" 2>&1 &
wifi_pids+=($!)
check "a phone joins the open network with no password" wait_for "$W/phone-open.log" CTRL-EVENT-CONNECTED 60

fi
nginx -c "$W/nginx.conf" -s stop 2>/dev/null
wifi_stop
ip address flush dev "$AP_IF" 2>/dev/null
[ "$fail" -eq "$wifi_failed_before" ] || { echo "--- hostapd"; tail -n 15 "$W/hostapd.log"; echo "--- dnsmasq"; tail -n 15 "$W/dnsmasq.log"
  echo "--- phone"; tail -n 15 "$W/phone.log"; echo "--- nginx"; tail -n 15 "$W/nginx-error.log"; echo "--- kiosk"; tail -n 15 "$T/wifi-kiosk.log"; }
