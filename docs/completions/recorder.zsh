#compdef recorder

__recorder_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__recorder_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __recorder_complete "${completions[@]:0:-1}"
    fi
}

__recorder_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_recorder() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'shoot:Record a shot from a camera into the shot workspace.'
            'post:Publish the current shot: queue it durably in the outbox, then upload it.'
            'outbox:List the posts waiting to be uploaded, or upload them.'
            'feed:List the posts in the store, newest first, a page at a time.'
            'fetch:Download a post'\''s video through the cache and print where it is.'
            'cache:Show or clear the video cache.'
            'export:Copy the posts made since a day into a new directory or ZIP archive for the event'\''s hosts: videos, posters, metadata, consent texts, and a SHA256SUMS.'
            'reel:Make the event'\''s highlight reel: its posts in one MP4, oldest first, each after a title card, all at one loudness.'
            'gallery:Make, list and revoke hosts'\'' galleries: a link of their own to every post of their event, with Download all.'
            'devices:List cameras with their formats, sizes and frame rates.'
            'kiosk:Run the kiosk service: a page and an HTTP API to shoot and post, with uploads in the background.'
            'serve:Serve guests'\'' share links and hosts'\'' galleries from the store, with no camera: links that still work after the event.'
            'doctor:Check the booth before an event: camera, microphone, button, disk, clock, store, outbox, tokens, share links, TLS, Wi-Fi and the service.'
            'fleet:List every booth writing its heartbeat into the store: online or offline, and what is wrong with each.'
            'config:Check the configuration, or show every value in effect and where it came from.'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        shoot|post|outbox|feed|fetch|cache|export|reel|gallery|devices|kiosk|serve|doctor|fleet|config|help)
            "_recorder_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_recorder_shoot() {
    local -i ret=1
    local -ar ___format=('auto' 'yuyv' 'yvyu' 'uyvy' 'nv12' 'nv21' 'yu12' 'yv12' 'yuv422p' 'rgb24' 'bgr24' 'xbgr32' 'abgr32' 'rgb565' 'grey' 'mjpeg' 'jpeg' 'h264')
    local -ar ___preset=('ultrafast' 'superfast' 'veryfast' 'faster' 'fast' 'medium' 'slow' 'slower' 'veryslow')
    local -ar ___effect=('none' 'boomerang' 'slowmo')
    local -ar arg_specs=(
        '(-t --seconds)'{-t,--seconds}'[How long to record, in seconds (shoot.seconds, default 15).]:seconds:'
        '(--device -d)'{--device,-d}'[Camera (shoot.device)\: a /dev/video path, a /dev/v4l/by-id name, an index from `recorder devices`, '\''testsrc'\'' for the built-in test pattern, or y4m\:FILE. Default\: the first camera, else the test pattern.]:device:{__recorder_custom_complete ---completion shoot -- --device "${current_word_index}" "$(__recorder_cursor_index_in_current_word)"}'
        '--audio[Sound (audio.device)\: auto (the camera'\''s own microphone; the test beep with the test pattern), none, beep (the test beep), or an ALSA capture device such as hw\:CARD=C920,DEV=0 (`recorder devices` lists them).]:device:{__recorder_custom_complete ---completion shoot -- --audio "${current_word_index}" "$(__recorder_cursor_index_in_current_word)"}'
        '(--size -s)'{--size,-s}'[Picture size (shoot.size), e.g. 1280x720 (default 1280x720, or the closest the camera offers).]:WxH:'
        '(-r --fps)'{-r,--fps}'[Frames per second (shoot.fps; default 30, or the closest the camera offers).]:fps:'
        '--format[Camera pixel format (shoot.format)\: auto (cheapest for the CPU), yuyv, uyvy, nv12, yu12, rgb24, grey, mjpeg, h264, ...]:format:{__recorder_complete "${___format[@]}"}'
        '--bitrate[Average bitrate in kbit/s, 50-200000 (shoot.bitrate; default\: constant quality, --crf).]:kbps:'
        '--preset[x264 preset (shoot.preset)\: ultrafast ... veryslow (default veryfast).]:preset:{__recorder_complete "${___preset[@]}"}'
        '--overlay[A branding frame\: a PNG with transparency, scaled to the shot (aspect kept) and blended onto every picture (shoot.overlay).]:frame.png:_files -g '\''*.png'\'''
        '--effect[What the shot is made into (shoot.effect)\: none; boomerang (a take of effect.boomerang_seconds, or --seconds 1-3, played forward then backward, looped to at least 3 s); slowmo (recorded at the camera'\''s fastest rate, played at 30 fps). The take is kept beside the effect and posted with it.]:effect:{__recorder_complete "${___effect[@]}"}'
        '--crf[x264 constant rate factor, 0-51, lower is better (shoot.crf, default 23).]:crf:'
        '--stall-timeout[Seconds without a frame before the camera counts as stalled (more than 0, at most 600; default 5).]:seconds:'
        '--min-seconds[A shot stopped early (Ctrl-C) with less than this is discarded and the previous shot kept (shoot.min_seconds, 0-600, default 1).]:seconds:'
        '(--quiet -q)'{--quiet,-q}'[No progress line and no notes\: only the result (and errors).]'
        '(--verbose -v)'{--verbose,-v}'[Also print each shot setting and where it came from (flag, environment, file\:line, default).]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--workspace[Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder; under systemd $STATE_DIRECTORY/workspace).]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_post() {
    local -i ret=1
    local -ar arg_specs=(
        '--caption[The caption (required unless --caption-file; may be empty\: --caption ""; - reads it from standard input).]:text:'
        '--caption-file[Read the caption from this UTF-8 file (trailing line breaks dropped).]:file:'
        '--shot[Post this shot instead of the current one\: a recovered recording kept beside it.]:id:'
        '--intro[A clip joined before the shot (post.intro)\: a PNG or JPEG (shown post.still_seconds, default 3) or an MP4 of at most 60 s; "" for none.]:file:'
        '--outro[A clip joined after the shot (post.outro), as --intro.]:file:'
        '--email[Also mail the post'\''s link to this address once it is in the store (mail.smtp_url and mail.from must be set); queued with the post, sent again until the server takes it.]:address:'
        '--dry-run[Show what would be uploaded where, and change nothing.]'
        '--attempts[Upload attempts before leaving the post queued (retryable failures only), 1-1000 (default 3).]:count:'
        '(--quiet -q)'{--quiet,-q}'[No notes\: only the result (and errors).]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--workspace[Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder; under systemd $STATE_DIRECTORY/workspace).]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_outbox() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List queued posts, oldest first.'
            'flush:Upload every queued post, oldest first.'
            'retarget:Point a queued post at the store these options configure.'
            'mail:List the guests'\'' mail (addresses masked): waiting, refused, and how many were sent.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|flush|retarget|mail)
            "_recorder_outbox_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_recorder_outbox_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_outbox_flush() {
    local -i ret=1
    local -ar arg_specs=(
        '--attempts[Attempts per post before giving up for now (default\: keep trying).]:attempts:'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_outbox_retarget() {
    local -i ret=1
    local -ar arg_specs=(
        ':id:'
        '--all[Every queued post that is not queued for this store (after fixing a store'\''s settings).]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_outbox_mail() {
    local -i ret=1
    local -ar arg_specs=(
        '--retry[Send this refused mail again (its id, as listed).]:id:'
        '--retry-all[Send every refused mail again.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_feed() {
    local -i ret=1
    local -ar arg_specs=(
        '--page[Page number, 1 = newest.]:number:'
        '(-n --limit)'{-n,--limit}'[Posts per page, 1-1000 (default 20).]:count:'
        '--after[Continue after this post id (stable while posts arrive).]:id:'
        '--reindex[Index the posts that have no feed entry yet (once, for posts from older versions).]'
        '--purge-expired[List the posts older than retention.days and this machine'\''s copies older than retention.local_days; with --yes, delete them.]'
        '--yes[With --purge-expired\: delete, not only list.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_fetch() {
    local -i ret=1
    local -ar arg_specs=(
        ':id:'
        '(--output -o)'{--output,-o}'[Also copy the video to this file; - writes it to standard output.]:file:'
        '(--quiet -q)'{--quiet,-q}'[No notes\: print only the path.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_cache() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List cached videos, most recently used first.'
            'clear:Remove every cached video and print the space freed.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|clear)
            "_recorder_cache_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_recorder_cache_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_cache_clear() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_export() {
    local -i ret=1
    local -ar arg_specs=(
        '--since[Posts made at or after this\: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18\:00\:00Z).]:day:'
        '(--output -o)'{--output,-o}'[The new directory, or a new archive when it ends in .zip (default\: the directory recorder-export-DAY).]:directory|archive.zip:'
        '(--quiet -q)'{--quiet,-q}'[No progress lines.]'
        '--with-contacts[Also the guests'\'' addresses this machine kept for their mail, only for posts whose consent text asked to keep them.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_reel() {
    local -i ret=1
    local -ar ___hidden=('no' 'yes')
    local -ar arg_specs=(
        '--since[Posts made at or after this\: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18\:00\:00Z).]:day:'
        '--prompt[Only the answers to this question, as kiosk.prompts has it (case aside).]:question:'
        '--hidden[Whether posts the operator hid go in too.]:hidden:{__recorder_complete "${___hidden[@]}"}'
        '(--output -o)'{--output,-o}'[The new file (default\: recorder-reel-DAY.mp4).]:reel.mp4:'
        '--size[The reel'\''s picture size (default\: the first post'\''s, at most 1920x1080).]:WxH:'
        '--fps[The reel'\''s frames per second, 1 to 60 (default\: the first post'\''s).]:n:'
        '--card-seconds[How long each title card shows, 0.5 to 10 seconds.]:seconds:'
        '--fade[Fade each card and post in and out over this many seconds, through the cards'\'' colour, 0 to 2 (default 0\: cuts).]:seconds:'
        '--loudness[The loudness every post is brought to, in LUFS\: -16 for phones and laptops, -23 for broadcast.]:LUFS:'
        '(--quiet -q)'{--quiet,-q}'[No progress lines.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_gallery() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Make a gallery of an event'\''s posts; print its link and QR code, and write its printable card.'
            'list:List the store'\''s galleries, newest first, with their links.'
            'revoke:Revoke a gallery: its link opens nothing from now on, on every server.'
            'card:Write a gallery'\''s printable card again (PDF).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|revoke|card)
            "_recorder_gallery_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_recorder_gallery_create() {
    local -i ret=1
    local -ar arg_specs=(
        '--event[The event'\''s name\: the page'\''s title and the ZIP'\''s.]:name:'
        '--since[Posts made at or after this\: a day (from midnight UTC) or a time (default\: a day before --until).]:time:'
        '--until[Posts made at or before this (default\: now).]:time:'
        '*--kiosk[Only this booth'\''s posts (its kiosk.id); repeat for more (default\: every booth).]:id:'
        '--expires[The link opens this many days (default\: until retention.days ends its posts).]:days:'
        '--reel[A highlight reel (recorder reel'\''s) to show first, stored with the gallery.]:reel.mp4:'
        '--card[Where to write the printable card (default\: gallery-card-TOKEN.pdf; none with --no-card).]:card.pdf:'
        '--no-card[Write no card.]'
        '--language[The card'\''s language, en or de (default\: serve.language).]:language:'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_gallery_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_gallery_revoke() {
    local -i ret=1
    local -ar arg_specs=(
        ':token-or-link:'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_gallery_card() {
    local -i ret=1
    local -ar arg_specs=(
        ':token-or-link:'
        '(--output -o)'{--output,-o}'[The new file (default\: gallery-card-TOKEN.pdf).]:card.pdf:'
        '--language[The card'\''s language, en or de (default\: serve.language).]:language:'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_devices() {
    local -i ret=1
    local -ar arg_specs=(
        '--json[Print the result as JSON on standard output.]'
        '--all[Also list nodes that cannot capture (metadata, output, codec nodes) and formats recorder cannot read.]'
        '--listen[Listen to every microphone for this many seconds (1 to 600), with a live level meter, then judge each.]:seconds:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_kiosk() {
    local -i ret=1
    local -ar arg_specs=(
        '--listen[Address and port to listen on (kiosk.listen, default 127.0.0.1\:8080).]:host\:port:'
        '(--device -d)'{--device,-d}'[Camera (kiosk.device)\: auto, a /dev path, a by-id name, or testsrc.]:device:'
        '--audio[Sound (audio.device)\: auto (the camera'\''s own microphone; the test beep with the test pattern), none, beep (the test beep), or an ALSA capture device such as hw\:CARD=C920,DEV=0 (`recorder devices` lists them).]:device:'
        '(-t --seconds)'{-t,--seconds}'[Shot length in seconds (kiosk.seconds, 1-600, default 15).]:seconds:'
        '--countdown[Countdown before a shot, in seconds (kiosk.countdown_seconds, default 3).]:countdown:'
        '--token-file[File with the operator'\''s token (kiosk.token_file).]:file:'
        '--booth-token-file[File with the booth'\''s token (kiosk.booth_token_file).]:file:'
        '--workspace[Shot workspace directory (workspace).]:dir:'
        '(--verbose -v)'{--verbose,-v}'[Log debug messages too.]'
        '--end-sessions[End every browser session (kiosk.state_dir)\: every browser must log in again at /login, the booth'\''s screen too; then exit. A running kiosk notices within a second.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_serve() {
    local -i ret=1
    local -ar arg_specs=(
        '--listen[Address and port to listen on (serve.listen, default 127.0.0.1\:8090).]:host\:port:'
        '(--verbose -v)'{--verbose,-v}'[Log debug messages too.]'
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_doctor() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '*--skip[Checks to leave out, comma-separated\: configuration,camera,microphone,trigger,disk,clock,store,outbox,tokens,share-links,tls,wifi,service.]:ids:'
        '--system-dir[Where the package'\''s system files are\: tls/*.crt (the proxy'\''s certificates) and wifi/hostapd.conf.]:dir:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_fleet() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--prometheus[Print the booths'\'' heartbeats as Prometheus metrics (each series labelled kiosk) instead of the table.]'
        '--listen[With --prometheus\: serve the metrics at http\://ADDRESS\:PORT/metrics until stopped.]:address\:port:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_config() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'check:Check the configuration file, the operator page'\''s settings, the RECORDER_* environment and --set as recorder kiosk checks them at its start: '\''ok'\'' (exit 0), or each problem as file:line: problem (exit 78).'
            'show:Show every configuration value in effect and where it came from: flag, environment variable, the operator page (with when it was saved), file:line or default. Secrets are masked.'
            'keys:List every configuration key: its values, its default, its environment variable and what it does.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        check|show|keys)
            "_recorder_config_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_recorder_config_check() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_config_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--config[Configuration file (default\: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf; on a booth, the package'\''s /usr/lib/recorder/recorder.conf beneath it).]:file:'
        '*--set[Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).]:key=value:'
        '--backend[Store\: local (default) or s3.]:backend:'
        '--store-dir[Directory of the local store.]:dir:'
        '--create[Create the local store'\''s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.]'
        '--endpoint[S3 endpoint, e.g. https\://s3.eu-west-1.amazonaws.com.]:url:'
        '--bucket[S3 bucket.]:bucket:'
        '--region[S3 region (for signing).]:region:'
        '--prefix[Key prefix in the store, e.g. booth-1/.]:prefix:'
        '--outbox[Outbox directory.]:dir:'
        '--json[Print the result as JSON on standard output.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_config_keys() {
    local -i ret=1
    local -ar arg_specs=(
        '--json[Print the result as JSON on standard output.]'
        '--markdown[Print docs/configuration.md (scripts/make-docs.sh writes it from this).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_recorder_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _recorder ]]; then
    _recorder "${@}"
else
    compdef _recorder recorder
fi
