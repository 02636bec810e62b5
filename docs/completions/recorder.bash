#!/bin/bash

__recorder_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__recorder_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__recorder_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__recorder_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_recorder() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __recorder_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    shoot|post|outbox|feed|fetch|cache|export|reel|gallery|devices|kiosk|serve|doctor|fleet|config|help)
        # Offer subcommand argument completions
        "_recorder_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'shoot post outbox feed fetch cache export reel gallery devices kiosk serve doctor fleet config help' -- "${cur}"))
        ;;
    esac
}

_recorder_shoot() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --verbose -v --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(-t --seconds --device -d --audio --size -s -r --fps --format --bitrate --preset --overlay --effect --crf --stall-timeout --min-seconds --config --workspace)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-t'|'--seconds')
        return
        ;;
    '--device'|'-d')
        __recorder_add_completions -W "$(__recorder_custom_complete ---completion shoot -- --device "${COMP_CWORD}" "$(__recorder_cursor_index_in_current_word)")"
        return
        ;;
    '--audio')
        __recorder_add_completions -W "$(__recorder_custom_complete ---completion shoot -- --audio "${COMP_CWORD}" "$(__recorder_cursor_index_in_current_word)")"
        return
        ;;
    '--size'|'-s')
        return
        ;;
    '-r'|'--fps')
        return
        ;;
    '--format')
        __recorder_add_completions -W 'auto'$'\n''yuyv'$'\n''yvyu'$'\n''uyvy'$'\n''nv12'$'\n''nv21'$'\n''yu12'$'\n''yv12'$'\n''yuv422p'$'\n''rgb24'$'\n''bgr24'$'\n''xbgr32'$'\n''abgr32'$'\n''rgb565'$'\n''grey'$'\n''mjpeg'$'\n''jpeg'$'\n''h264'
        return
        ;;
    '--bitrate')
        return
        ;;
    '--preset')
        __recorder_add_completions -W 'ultrafast'$'\n''superfast'$'\n''veryfast'$'\n''faster'$'\n''fast'$'\n''medium'$'\n''slow'$'\n''slower'$'\n''veryslow'
        return
        ;;
    '--overlay')
        __recorder_add_completions -o plusdirs -fX '!*.@(png)'
        return
        ;;
    '--effect')
        __recorder_add_completions -W 'none'$'\n''boomerang'$'\n''slowmo'
        return
        ;;
    '--crf')
        return
        ;;
    '--stall-timeout')
        return
        ;;
    '--min-seconds')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--workspace')
        return
        ;;
    esac
}

_recorder_post() {
    repeating_flags=()
    non_repeating_flags=(--dry-run --quiet -q --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--caption --caption-file --shot --intro --outro --email --attempts --config --backend --store-dir --endpoint --bucket --region --prefix --outbox --workspace)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--caption')
        return
        ;;
    '--caption-file')
        return
        ;;
    '--shot')
        return
        ;;
    '--intro')
        return
        ;;
    '--outro')
        return
        ;;
    '--email')
        return
        ;;
    '--attempts')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    '--workspace')
        return
        ;;
    esac
}

_recorder_outbox() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|flush|retarget|mail)
        # Offer subcommand argument completions
        "_recorder_outbox_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list flush retarget mail' -- "${cur}"))
        ;;
    esac
}

_recorder_outbox_list() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_outbox_flush() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--attempts --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--attempts')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_outbox_retarget() {
    repeating_flags=()
    non_repeating_flags=(--all --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_outbox_mail() {
    repeating_flags=()
    non_repeating_flags=(--retry-all --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--retry --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--retry')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_feed() {
    repeating_flags=()
    non_repeating_flags=(--reindex --purge-expired --yes --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--page -n --limit --after --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--page')
        return
        ;;
    '-n'|'--limit')
        return
        ;;
    '--after')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_fetch() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--output -o --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--output'|'-o')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_cache() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|clear)
        # Offer subcommand argument completions
        "_recorder_cache_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list clear' -- "${cur}"))
        ;;
    esac
}

_recorder_cache_list() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_cache_clear() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_export() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --with-contacts --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--since --output -o --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--since')
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_reel() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--since --prompt --hidden --output -o --size --fps --card-seconds --fade --loudness --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--since')
        return
        ;;
    '--prompt')
        return
        ;;
    '--hidden')
        __recorder_add_completions -W 'no'$'\n''yes'
        return
        ;;
    '--output'|'-o')
        return
        ;;
    '--size')
        return
        ;;
    '--fps')
        return
        ;;
    '--card-seconds')
        return
        ;;
    '--fade')
        return
        ;;
    '--loudness')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_gallery() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|revoke|card)
        # Offer subcommand argument completions
        "_recorder_gallery_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list revoke card' -- "${cur}"))
        ;;
    esac
}

_recorder_gallery_create() {
    repeating_flags=()
    non_repeating_flags=(--no-card --create --json --version -h --help)
    repeating_options=(--kiosk --set)
    non_repeating_options=(--event --since --until --expires --reel --card --language --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--event')
        return
        ;;
    '--since')
        return
        ;;
    '--until')
        return
        ;;
    '--kiosk')
        return
        ;;
    '--expires')
        return
        ;;
    '--reel')
        return
        ;;
    '--card')
        return
        ;;
    '--language')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_gallery_list() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_gallery_revoke() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_gallery_card() {
    repeating_flags=()
    non_repeating_flags=(--create --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--output -o --language --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--output'|'-o')
        return
        ;;
    '--language')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_devices() {
    repeating_flags=()
    non_repeating_flags=(--json --all --version -h --help)
    repeating_options=()
    non_repeating_options=(--listen)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--listen')
        return
        ;;
    esac
}

_recorder_kiosk() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --end-sessions --create --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--listen --device -d --audio -t --seconds --countdown --token-file --booth-token-file --workspace --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--listen')
        return
        ;;
    '--device'|'-d')
        return
        ;;
    '--audio')
        return
        ;;
    '-t'|'--seconds')
        return
        ;;
    '--countdown')
        return
        ;;
    '--token-file')
        return
        ;;
    '--booth-token-file')
        return
        ;;
    '--workspace')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_serve() {
    repeating_flags=()
    non_repeating_flags=(--verbose -v --create --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--listen --config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--listen')
        return
        ;;
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_doctor() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set --skip)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox --system-dir)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    '--skip')
        return
        ;;
    '--system-dir')
        return
        ;;
    esac
}

_recorder_fleet() {
    repeating_flags=()
    non_repeating_flags=(--create --json --prometheus --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox --listen)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    '--listen')
        return
        ;;
    esac
}

_recorder_config() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    check|show|keys)
        # Offer subcommand argument completions
        "_recorder_config_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'check show keys' -- "${cur}"))
        ;;
    esac
}

_recorder_config_check() {
    repeating_flags=()
    non_repeating_flags=(--create --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_config_show() {
    repeating_flags=()
    non_repeating_flags=(--create --json --version -h --help)
    repeating_options=(--set)
    non_repeating_options=(--config --backend --store-dir --endpoint --bucket --region --prefix --outbox)
    __recorder_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--config')
        return
        ;;
    '--set')
        return
        ;;
    '--backend')
        return
        ;;
    '--store-dir')
        return
        ;;
    '--endpoint')
        return
        ;;
    '--bucket')
        return
        ;;
    '--region')
        return
        ;;
    '--prefix')
        return
        ;;
    '--outbox')
        return
        ;;
    esac
}

_recorder_config_keys() {
    repeating_flags=()
    non_repeating_flags=(--json --markdown --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options 0
}

_recorder_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __recorder_offer_flags_options -1
}

complete -o filenames -F _recorder recorder
