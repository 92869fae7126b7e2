# bash completion for pascal: commands, each command's flags and the values
# they take, and file names.  Commands and flags come from pascal itself
# (the hidden `pascal --complete` and `pascal COMMAND --complete`), so they
# always match the flag tables of the binary being completed.
# Installed as share/bash-completion/completions/pascal.

_pascal()
{
    local prog=$1 cur=$2 prev=$3 cmd flags meta
    COMPREPLY=()
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$("$prog" --complete 2>/dev/null) --help --version" -- "$cur"))
        return
    fi
    cmd=${COMP_WORDS[1]}
    flags=$("$prog" "$cmd" --complete 2>/dev/null) || return
    # The value of the flag just typed: its choices (a|b|c, lower-case
    # words), file names for paths and profiles, nothing for numbers.
    if [[ $prev == --* || $prev == -o ]]; then
        [[ $prev == -o ]] && prev=--output
        meta=$(while IFS=$'\t' read -r name m; do
                   [[ $name == "$prev" ]] && printf '%s' "$m"
               done <<<"$flags")
        if [[ -n $meta ]]; then
            case $meta in
            *'|'*)
                COMPREPLY=($(compgen -W "$(tr '|' '\n' <<<"$meta" | grep -v '[A-Z]')" -- "$cur")) ;;
            PATH | PROFILE | *FILE* | DIR)
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(cut -f1 <<<"$flags")" -- "$cur"))
        return
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _pascal pascal
