# Sourced by the S3 benchmarks (upload.sh, cache.sh): a SeaweedFS on loopback for the run, a 100 MB
# file of random bytes, a private HOME and XDG directories, recorder pointed at the store, and
# fake_shot, which makes that file the current shot. Needs OUT, PORT and BUCKET set.
bash Tests/s3/seaweedfs.sh start "$OUT/s3" "$PORT" "$BUCKET"
trap 'bash Tests/s3/seaweedfs.sh stop "$OUT/s3"' EXIT
head -c 100000000 /dev/urandom > "$OUT/file.bin"

export AWS_ACCESS_KEY_ID=recorder-test AWS_SECRET_ACCESS_KEY=recorder-test-secret
export HOME=$OUT/home XDG_RUNTIME_DIR=$OUT/run XDG_STATE_HOME=$OUT/state XDG_DATA_HOME=$OUT/data XDG_CONFIG_HOME=$OUT/config
export XDG_CACHE_HOME=$OUT/cache RECORDER_BACKEND=s3 RECORDER_S3_BUCKET=$BUCKET RECORDER_S3_ENDPOINT=http://127.0.0.1:$PORT
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"

# A shot whose video is the 100 MB file (post reads the shot's recorded facts, not the bytes' format).
fake_shot() {
  local ws=$XDG_RUNTIME_DIR/recorder id=bench-$1
  rm -rf "$ws"; mkdir -p "$ws/shots/$id"
  ln "$OUT/file.bin" "$ws/shots/$id/video.mp4" 2>/dev/null || cp "$OUT/file.bin" "$ws/shots/$id/video.mp4"
  cat > "$ws/shots/$id/shot.json" <<JSON
{"id":"$id","videoPath":"$ws/shots/$id/video.mp4","createdAt":"2026-01-01T00:00:00Z","source":"benchmark",
 "inputFormat":"yu12","width":1920,"height":1080,"frameRate":30,"frames":300,"framesDropped":0,"durationSeconds":10,
 "byteSize":100000000,"codec":"h264","encoder":"libx264","notes":[]}
JSON
  ln -sfn "shots/$id" "$ws/current"
}
