function __recorder_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __recorder_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __recorder_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __recorder_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __recorder_parse_tokens -S
    set -l unparsed_tokens (__recorder_tokens -pc)
    switch $unparsed_tokens[1]
    case 'recorder'
        __recorder_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'shoot'
            __recorder_parse_subcommand 0 't/seconds=' 'd/device=' 'audio=' 's/size=' 'r/fps=' 'format=' 'bitrate=' 'preset=' 'overlay=' 'crf=' 'stall-timeout=' 'min-seconds=' 'q/quiet' 'v/verbose' 'config=' 'set=+' 'workspace=' 'json' 'version' 'h/help'
        case 'post'
            __recorder_parse_subcommand 0 'caption=' 'caption-file=' 'shot=' 'intro=' 'outro=' 'email=' 'dry-run' 'attempts=' 'q/quiet' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'workspace=' 'json' 'version' 'h/help'
        case 'outbox'
            __recorder_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __recorder_parse_subcommand 0 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            case 'flush'
                __recorder_parse_subcommand 0 'attempts=' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            case 'retarget'
                __recorder_parse_subcommand 1 'all' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            case 'mail'
                __recorder_parse_subcommand 0 'retry=' 'retry-all' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            end
        case 'feed'
            __recorder_parse_subcommand 0 'page=' 'n/limit=' 'after=' 'reindex' 'purge-expired' 'yes' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
        case 'fetch'
            __recorder_parse_subcommand 1 'o/output=' 'q/quiet' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
        case 'cache'
            __recorder_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'list'
                __recorder_parse_subcommand 0 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            case 'clear'
                __recorder_parse_subcommand 0 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            end
        case 'export'
            __recorder_parse_subcommand 0 'since=' 'o/output=' 'q/quiet' 'with-contacts' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
        case 'reel'
            __recorder_parse_subcommand 0 'since=' 'prompt=' 'hidden=' 'o/output=' 'size=' 'fps=' 'card-seconds=' 'fade=' 'loudness=' 'q/quiet' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
        case 'devices'
            __recorder_parse_subcommand 0 'json' 'all' 'listen=' 'version' 'h/help'
        case 'kiosk'
            __recorder_parse_subcommand 0 'listen=' 'd/device=' 't/seconds=' 'countdown=' 'token-file=' 'booth-token-file=' 'workspace=' 'v/verbose' 'end-sessions' 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'version' 'h/help'
        case 'config'
            __recorder_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'check'
                __recorder_parse_subcommand 0 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'version' 'h/help'
            case 'show'
                __recorder_parse_subcommand 0 'config=' 'set=+' 'backend=' 'store-dir=' 'create' 'endpoint=' 'bucket=' 'region=' 'prefix=' 'outbox=' 'json' 'version' 'h/help'
            case 'keys'
                __recorder_parse_subcommand 0 'json' 'markdown' 'version' 'h/help'
            end
        case 'help'
            __recorder_parse_subcommand -r 1 'version'
        end
    end
end

function __recorder_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __recorder_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __recorder_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __recorder_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__recorder_tokens -p)
    if test -z "$(__recorder_tokens -t)"
        set -l index (count (__recorder_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'recorder' -f
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'shoot' -d 'Record a shot from a camera into the shot workspace.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'post' -d 'Publish the current shot: queue it durably in the outbox, then upload it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'outbox' -d 'List the posts waiting to be uploaded, or upload them.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'feed' -d 'List the posts in the store, newest first, a page at a time.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'fetch' -d 'Download a post\'s video through the cache and print where it is.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'cache' -d 'Show or clear the video cache.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'export' -d 'Copy the posts made since a day into a new directory or ZIP archive for the event\'s hosts: videos, posters, metadata, consent texts, and a SHA256SUMS.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'reel' -d 'Make the event\'s highlight reel: its posts in one MP4, oldest first, each after a title card, all at one loudness.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'devices' -d 'List cameras with their formats, sizes and frame rates.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'kiosk' -d 'Run the kiosk service: a page and an HTTP API to shoot and post, with uploads in the background.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'config' -d 'Check the configuration, or show every value in effect and where it came from.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" seconds t' -s 't' -l 'seconds' -d 'How long to record, in seconds (shoot.seconds, default 15).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" d device' -l 'device' -s 'd' -d 'Camera (shoot.device): a /dev/video path, a /dev/v4l/by-id name, an index from `recorder devices`, \'testsrc\' for the built-in test pattern, or y4m:FILE. Default: the first camera, else the test pattern.' -rfka '(__recorder_custom_completion ---completion shoot -- --device (count (__recorder_tokens -pc)) (__recorder_tokens -tC))'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" audio' -l 'audio' -d 'Sound (audio.device): auto (the camera\'s own microphone; the test beep with the test pattern), none, beep (the test beep), or an ALSA capture device such as hw:CARD=C920,DEV=0 (`recorder devices` lists them).' -rfka '(__recorder_custom_completion ---completion shoot -- --audio (count (__recorder_tokens -pc)) (__recorder_tokens -tC))'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" s size' -l 'size' -s 's' -d 'Picture size (shoot.size), e.g. 1280x720 (default 1280x720, or the closest the camera offers).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" fps r' -s 'r' -l 'fps' -d 'Frames per second (shoot.fps; default 30, or the closest the camera offers).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" format' -l 'format' -d 'Camera pixel format (shoot.format): auto (cheapest for the CPU), yuyv, uyvy, nv12, yu12, rgb24, grey, mjpeg, h264, ...' -rfka 'auto yuyv yvyu uyvy nv12 nv21 yu12 yv12 yuv422p rgb24 bgr24 xbgr32 abgr32 rgb565 grey mjpeg jpeg h264'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" bitrate' -l 'bitrate' -d 'Average bitrate in kbit/s, 50-200000 (shoot.bitrate; default: constant quality, --crf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" preset' -l 'preset' -d 'x264 preset (shoot.preset): ultrafast ... veryslow (default veryfast).' -rfka 'ultrafast superfast veryfast faster fast medium slow slower veryslow'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" overlay' -l 'overlay' -d 'A branding frame: a PNG with transparency, scaled to the shot (aspect kept) and blended onto every picture (shoot.overlay).' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'png\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" crf' -l 'crf' -d 'x264 constant rate factor, 0-51, lower is better (shoot.crf, default 23).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" stall-timeout' -l 'stall-timeout' -d 'Seconds without a frame before the camera counts as stalled (more than 0, at most 600; default 5).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" min-seconds' -l 'min-seconds' -d 'A shot stopped early (Ctrl-C) with less than this is discarded and the previous shot kept (shoot.min_seconds, 0-600, default 1).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" q quiet' -l 'quiet' -s 'q' -d 'No progress line and no notes: only the result (and errors).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" v verbose' -l 'verbose' -s 'v' -d 'Also print each shot setting and where it came from (flag, environment, file:line, default).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" workspace' -l 'workspace' -d 'Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder; under systemd $STATE_DIRECTORY/workspace).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder shoot" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" caption' -l 'caption' -d 'The caption (required unless --caption-file; may be empty: --caption ""; - reads it from standard input).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" caption-file' -l 'caption-file' -d 'Read the caption from this UTF-8 file (trailing line breaks dropped).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" shot' -l 'shot' -d 'Post this shot instead of the current one: a recovered recording kept beside it.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" intro' -l 'intro' -d 'A clip joined before the shot (post.intro): a PNG or JPEG (shown post.still_seconds, default 3) or an MP4 of at most 60 s; "" for none.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" outro' -l 'outro' -d 'A clip joined after the shot (post.outro), as --intro.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" email' -l 'email' -d 'Also mail the post\'s link to this address once it is in the store (mail.smtp_url and mail.from must be set); queued with the post, sent again until the server takes it.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" dry-run' -l 'dry-run' -d 'Show what would be uploaded where, and change nothing.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" attempts' -l 'attempts' -d 'Upload attempts before leaving the post queued (retryable failures only), 1-1000 (default 3).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" q quiet' -l 'quiet' -s 'q' -d 'No notes: only the result (and errors).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" workspace' -l 'workspace' -d 'Shot workspace directory (workspace, default $XDG_RUNTIME_DIR/recorder; under systemd $STATE_DIRECTORY/workspace).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder post" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder outbox" -eq 1' -fa 'list' -d 'List queued posts, oldest first.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder outbox" -eq 1' -fa 'flush' -d 'Upload every queued post, oldest first.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder outbox" -eq 1' -fa 'retarget' -d 'Point a queued post at the store these options configure.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder outbox" -eq 1' -fa 'mail' -d 'List the guests\' mail (addresses masked): waiting, refused, and how many were sent.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" attempts' -l 'attempts' -d 'Attempts per post before giving up for now (default: keep trying).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox flush" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" all' -l 'all' -d 'Every queued post that is not queued for this store (after fixing a store\'s settings).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox retarget" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" retry' -l 'retry' -d 'Send this refused mail again (its id, as listed).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" retry-all' -l 'retry-all' -d 'Send every refused mail again.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder outbox mail" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" page' -l 'page' -d 'Page number, 1 = newest.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" limit n' -s 'n' -l 'limit' -d 'Posts per page, 1-1000 (default 20).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" after' -l 'after' -d 'Continue after this post id (stable while posts arrive).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" reindex' -l 'reindex' -d 'Index the posts that have no feed entry yet (once, for posts from older versions).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" purge-expired' -l 'purge-expired' -d 'List the posts older than retention.days and this machine\'s copies older than retention.local_days; with --yes, delete them.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" yes' -l 'yes' -d 'With --purge-expired: delete, not only list.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder feed" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" o output' -l 'output' -s 'o' -d 'Also copy the video to this file; - writes it to standard output.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" q quiet' -l 'quiet' -s 'q' -d 'No notes: print only the path.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder fetch" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder cache" -eq 1' -fa 'list' -d 'List cached videos, most recently used first.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder cache" -eq 1' -fa 'clear' -d 'Remove every cached video and print the space freed.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder cache clear" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" since' -l 'since' -d 'Posts made at or after this: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18:00:00Z).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" o output' -l 'output' -s 'o' -d 'The new directory, or a new archive when it ends in .zip (default: the directory recorder-export-DAY).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" q quiet' -l 'quiet' -s 'q' -d 'No progress lines.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" with-contacts' -l 'with-contacts' -d 'Also the guests\' addresses this machine kept for their mail, only for posts whose consent text asked to keep them.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" since' -l 'since' -d 'Posts made at or after this: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18:00:00Z).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" prompt' -l 'prompt' -d 'Only the answers to this question, as kiosk.prompts has it (case aside).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" hidden' -l 'hidden' -d 'Whether posts the operator hid go in too.' -rfka 'no yes'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" o output' -l 'output' -s 'o' -d 'The new file (default: recorder-reel-DAY.mp4).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" size' -l 'size' -d 'The reel\'s picture size (default: the first post\'s, at most 1920x1080).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" fps' -l 'fps' -d 'The reel\'s frames per second, 1 to 60 (default: the first post\'s).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" card-seconds' -l 'card-seconds' -d 'How long each title card shows, 0.5 to 10 seconds.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" fade' -l 'fade' -d 'Fade each card and post in and out over this many seconds, through the cards\' colour, 0 to 2 (default 0: cuts).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" loudness' -l 'loudness' -d 'The loudness every post is brought to, in LUFS: -16 for phones and laptops, -23 for broadcast.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" q quiet' -l 'quiet' -s 'q' -d 'No progress lines.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder reel" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder devices" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder devices" all' -l 'all' -d 'Also list nodes that cannot capture (metadata, output, codec nodes) and formats recorder cannot read.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder devices" listen' -l 'listen' -d 'Listen to every microphone for this many seconds (1 to 600), with a live level meter, then judge each.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder devices" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder devices" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" listen' -l 'listen' -d 'Address and port to listen on (kiosk.listen, default 127.0.0.1:8080).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" d device' -l 'device' -s 'd' -d 'Camera (kiosk.device): auto, a /dev path, a by-id name, or testsrc.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" seconds t' -s 't' -l 'seconds' -d 'Shot length in seconds (kiosk.seconds, 1-600, default 15).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" countdown' -l 'countdown' -d 'Countdown before a shot, in seconds (kiosk.countdown_seconds, default 3).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" token-file' -l 'token-file' -d 'File with the operator\'s token (kiosk.token_file).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" booth-token-file' -l 'booth-token-file' -d 'File with the booth\'s token (kiosk.booth_token_file).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" workspace' -l 'workspace' -d 'Shot workspace directory (workspace).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" v verbose' -l 'verbose' -s 'v' -d 'Log debug messages too.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" end-sessions' -l 'end-sessions' -d 'End every browser session (kiosk.state_dir): every browser must log in again at /login, the booth\'s screen too; then exit. A running kiosk notices within a second.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder kiosk" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder config" -eq 1' -fa 'check' -d 'Check the configuration file, the RECORDER_* environment and --set: \'ok\' (exit 0), or each problem as file:line: problem (exit 78).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder config" -eq 1' -fa 'show' -d 'Show every configuration value in effect and where it came from: flag, environment variable, file:line or default. Secrets are masked.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_positional "recorder config" -eq 1' -fa 'keys' -d 'List every configuration key: its values, its default, its environment variable and what it does.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" config' -l 'config' -d 'Configuration file (default: $RECORDER_CONFIG, ~/.config/recorder/recorder.conf, /etc/recorder/recorder.conf).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show"' -l 'set' -d 'Any configuration key, e.g. --set s3.part_size_mib=16 (repeatable).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" backend' -l 'backend' -d 'Store: local (default) or s3.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" store-dir' -l 'store-dir' -d 'Directory of the local store.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" create' -l 'create' -d 'Create the local store\'s directory (--store-dir, local.path) when it is missing; without it a missing one is an error, so an unmounted disk never fills the one under it.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" endpoint' -l 'endpoint' -d 'S3 endpoint, e.g. https://s3.eu-west-1.amazonaws.com.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" bucket' -l 'bucket' -d 'S3 bucket.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" region' -l 'region' -d 'S3 region (for signing).' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" prefix' -l 'prefix' -d 'Key prefix in the store, e.g. booth-1/.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" outbox' -l 'outbox' -d 'Outbox directory.' -rfka ''
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config keys" json' -l 'json' -d 'Print the result as JSON on standard output.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config keys" markdown' -l 'markdown' -d 'Print docs/configuration.md (scripts/make-docs.sh writes it from this).'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config keys" version' -l 'version' -d 'Show the version.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder config keys" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'recorder' -n '__recorder_should_offer_completions_for_flags_or_options "recorder help" version' -l 'version' -d 'Show the version.'
