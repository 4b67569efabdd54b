"""thaiboard.pyffish: names, constants, and clear errors on bad input."""

import pytest

import thaiboard.pyffish as sf

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


def test_constants_have_pyffish_values():
    assert (sf.NOTATION_DEFAULT, sf.NOTATION_SAN, sf.NOTATION_LAN) == (0, 1, 2)
    assert (sf.NOTATION_THAI_SAN, sf.NOTATION_THAI_LAN) == (8, 9)
    assert (sf.VALUE_MATE, sf.VALUE_DRAW, sf.FEN_OK, sf.FEN_INVALID_PROMOTED_PIECE) == (32000, 0, 1, -12)


def test_start_and_notations():
    assert sf.start_fen("makruk") == START
    assert sf.get_san("makruk", START, "e3e4", False, sf.NOTATION_LAN) == "e3-e4"
    assert sf.get_san("makruk", START, "b1d2", False, sf.NOTATION_LAN) == "Nb1-d2"
    assert sf.get_san("makruk", START, "e3e4", False, sf.NOTATION_THAI_LAN) == "บ จ๓-จ๔"
    assert sf.get_san_moves("makruk", START, ["e3e4", "d6d5", "e4d5"]) == ["e4", "d5", "exd5"]
    assert sf.get_fen("makruk", "startpos", ["e3e4"], False, True) == "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR w - 2"


def test_keyword_arguments():
    assert sf.get_fen("makruk", START, [], show_promoted=True) == START
    assert sf.get_san("makruk", START, "e3e4", notation=sf.NOTATION_THAI_SAN) == "จ๔"


def test_repetition_is_an_optional_end():
    shuffle = ["b1d2", "b8d7", "d2b1", "d7b8"]
    assert sf.is_optional_game_end("makruk", START, shuffle) == (False, 0)
    assert sf.is_optional_game_end("makruk", START, shuffle * 2) == (True, sf.VALUE_DRAW)


@pytest.mark.parametrize("variant", ["chess", "Makruk", "makhos", ""])
def test_unknown_variant_is_a_value_error(variant):
    with pytest.raises(ValueError, match="unknown variant"):
        sf.legal_moves(variant, START, [])


def test_bad_fen_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"invalid FEN 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN w"):
        sf.get_fen("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN w - - 0 1", [])
    with pytest.raises(ValueError, match="character"):
        sf.legal_moves("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNX w - - 0 1", [])


def test_illegal_move_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match=r"Invalid move 'e3e5' \(move 2 of the list\)"):
        sf.get_fen("makruk", START, ["e3e4", "e3e5"])
    with pytest.raises(ValueError, match="Invalid move 'zz'"):
        sf.get_san("makruk", START, "zz")


def test_foreign_notation_is_refused():
    with pytest.raises(ValueError, match="NOTATION_XIANGQI_WXF"):
        sf.get_san("makruk", START, "e3e4", False, sf.NOTATION_XIANGQI_WXF)


@pytest.mark.parametrize(
    "fen,code",
    [
        ("", 0),
        (START, 1),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1 x", -11),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNX w - - 0 1", -10),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/RNSKMSNR w - - 0 1", -8),
        ("rnsm1snr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", -3),
        ("8/8/8/3kK3/8/8/8/8 w - - 0 1", -9),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR x - - 0 1", -6),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - a 0 1", -14),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - z 1", -2),
        ("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 z", -1),
    ],
)
def test_validate_fen_codes(fen, code):
    assert sf.validate_fen(fen, "makruk") == code


def test_cambodian_met_double_step_is_not_disambiguated_against_an_ordinary_move():
    # Black's unmoved met on d8 (double step to d6) and a promoted met on c5
    # (one step to d6): Fairy-Stockfish writes both without an origin.
    fen = "rn1m4/1n4r1/p3ks2/1pm~2p1N/RPP1pK1P/7P/1S1M4/1NR2S2 b d - 13 36"
    assert sf.get_san("cambodian", fen, "d8d6") == "Md6"
    assert sf.get_san("cambodian", fen, "c5d6") == "Md6"
    assert sf.get_san("cambodian", fen, "d8d6", False, sf.NOTATION_THAI_SAN) == "ม็-ง๖"
    assert sf.get_san("cambodian", fen, "c5d6", False, sf.NOTATION_THAI_SAN) == "ง-ง๖"
