# Sourced by official_match.sh and ouk_match.sh once THAIBOARD, FAIRY_STOCKFISH
# and PGN are shifted off: turns the words left in "$@" into options of our
# engine for `thaiboard match`. NAME=VALUE becomes option.NAME=VALUE (e.g.
# TablebasePath=DIR); a word without `=` is a network file, option.EvalFile, and
# must exist (a mistyped option stops the script instead of becoming one).
# (`set --` inside the loop keeps words with spaces whole.)
for o in "$@"; do
  case $o in
    *=*) set -- "$@" "option.$o" ;;
    *)
      if [ ! -f "$o" ]; then
        echo "$(basename "$0"): $o is neither NAME=VALUE nor a network file" >&2
        exit 2
      fi
      set -- "$@" "option.EvalFile=$o"
      ;;
  esac
  shift
done
