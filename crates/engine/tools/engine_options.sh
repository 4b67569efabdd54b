# Sourced by official_match.sh and ouk_match.sh once THAIBOARD, FAIRY_STOCKFISH
# and PGN are shifted off: turns the words left in "$@" into options of our
# engine for `thaiboard match`. NAME=VALUE becomes option.NAME=VALUE (e.g.
# TablebasePath=DIR); a word without `=` is a network file, option.EvalFile.
# (`set --` inside the loop keeps words with spaces whole.)
for o in "$@"; do
  case $o in
    *=*) set -- "$@" "option.$o" ;;
    *) set -- "$@" "option.EvalFile=$o" ;;
  esac
  shift
done
