// Generated from the server's Rust types by crates/server/src/api_types.rs:
// do not edit; run `UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test server api_types`.

export type Color = "white" | "black";

export type CountView = { 
/**
 * The side that counts (unknown for a board's-honour count nobody declared).
 */
side: Color | null, 
/**
 * `board` (board's honour) or `pieces` (pieces' honour).
 */
kind: 'board' | 'pieces', 
/**
 * Plies counted so far.
 */
ply: number, 
/**
 * The limit in plies: the game is drawn past it.
 */
limit: number, 
/**
 * The count as the counting side says it aloud ([`crate::spoken_count`]):
 * the number of its next move when it is to move, else of its last.
 */
spoken: number, 
/**
 * The last number it may say (64 for board's honour in Makruk).
 */
spoken_limit: number, };

export type User = { 
/**
 * Id.
 */
id: string, 
/**
 * Name shown to others.
 */
username: string, 
/**
 * A guest (no password) rather than an account.
 */
guest: boolean, };

export type TcKind = "none" | "live" | "correspondence";

export type TimeControl = { 
/**
 * Kind.
 */
kind: TcKind, 
/**
 * Time on each clock at the start.
 */
initial_ms: number, 
/**
 * Added to the mover's clock after each move.
 */
increment_ms: number, 
/**
 * A clock never holds more than this (0: no cap).
 */
max_ms: number, };

export type Status = "open" | "ongoing" | "finished" | "cancelled" | "aborted";

export type ActionKind = "move" | "count_start" | "count_stop" | "takeback" | "berserk";

export type ThaiText = { 
/**
 * The short form (`จ๔`, `ม-ง๗`, `คจ-ง๔`).
 */
short: string, 
/**
 * The long form, the book form (`บ จ๓-จ๔`); never ambiguous.
 */
long: string, };

export type Action = { 
/**
 * Position in the game's action log, from 1.
 */
seq: number, 
/**
 * What it records.
 */
kind: ActionKind, 
/**
 * The move in engine form; for counts, the side (`white`/`black`).
 */
uci: string, 
/**
 * The move for display (SAN, `c3xe5xc7`), or the count's description.
 */
san: string, 
/**
 * The move in Thai notation (none for counts).
 */
thai?: ThaiText, 
/**
 * The position after it.
 */
fen: string, 
/**
 * White's clock after it, ms.
 */
white_ms: number, 
/**
 * Black's clock after it, ms.
 */
black_ms: number, 
/**
 * When it happened, ms since the epoch.
 */
at: number, };

export type ShownRating = { 
/**
 * The rating, rounded.
 */
rating: number, 
/**
 * Provisional (shown with `?`).
 */
provisional: boolean, };

export type PlayerView = { 
/**
 * User id.
 */
id: string, 
/**
 * Name.
 */
username: string, 
/**
 * The rating in the game's pool when the game started (none for the
 * computer and guests).
 */
rating: ShownRating | null, 
/**
 * What the game changed, once a rated game ended.
 */
rating_diff: number | null, };

export type PauseView = { 
/**
 * It begins.
 */
from: number, 
/**
 * The clock runs again.
 */
until: number, };

export type ClockView = { 
/**
 * White's time left at `server_now`, ms.
 */
white_ms: number, 
/**
 * Black's time left at `server_now`, ms.
 */
black_ms: number, 
/**
 * The side whose clock runs, if any.
 */
running: Color | null, 
/**
 * The server's time of this reading, ms since the epoch.
 */
server_now: number, 
/**
 * When the clock stands still for leave from `server_now` on (the
 * current pause and those booked), in time order: a client's running
 * clock does not tick inside them.
 */
pauses: Array<PauseView>, };

export type LeaveView = { 
/**
 * Whose leave.
 */
side: Color, 
/**
 * It began (or begins), ms since the epoch.
 */
from: number, 
/**
 * It ended (or ends).
 */
until: number, 
/**
 * Moves made when it began: it is shown after that move.
 */
ply: number, 
/**
 * Its first day, `YYYY-MM-DD`, in the player's time zone.
 */
first_day: string, 
/**
 * Its last day (inclusive), in the player's time zone.
 */
last_day: string, 
/**
 * Days from the first to the last, both counted.
 */
days: number, };

export type LegalMove = { 
/**
 * Engine form, the move's identity: `e3e4`, `c5c6m`, Mak-hot `c3e5c7`.
 */
uci: string, 
/**
 * Display form: Makruk SAN `Me2`, Mak-hot `c3xe5xc7`.
 */
san: string, 
/**
 * Squares the piece passes through: start, every landing square, end.
 */
path: Array<string>, 
/**
 * Thai notation, both forms.
 */
thai: ThaiText, };

export type GameView = { 
/**
 * Id.
 */
id: string, 
/**
 * Variant name.
 */
variant: 'makruk' | 'cambodian' | 'makhos', 
/**
 * Rule option.
 */
rules: 'default' | 'no-reverse', 
/**
 * Stage.
 */
status: Status, 
/**
 * Whether the game counts for ratings.
 */
rated: boolean, 
/**
 * The rating pool's key (`makruk/blitz`), for games with a clock.
 */
pool: string | null, 
/**
 * The challenger.
 */
creator: PlayerView, 
/**
 * Colour asked for by the challenger.
 */
creator_color: string, 
/**
 * White player.
 */
white: PlayerView | null, 
/**
 * Black player.
 */
black: PlayerView | null, 
/**
 * Time control.
 */
time_control: TimeControl, 
/**
 * Clocks.
 */
clock: ClockView, 
/**
 * Moves made.
 */
ply: number, 
/**
 * Side to move.
 */
turn: Color, 
/**
 * Current position.
 */
fen: string, 
/**
 * Legal moves of the side to move (empty unless ongoing).
 */
legal: Array<LegalMove>, 
/**
 * Result once finished.
 */
result: '1-0' | '0-1' | '1/2-1/2' | null, 
/**
 * Reason of the result (an [`games::EndReason`] name, or `aborted`).
 */
reason: string | null, 
/**
 * Side offering a draw.
 */
draw_offer: Color | null, 
/**
 * Side proposing a takeback (casual games).
 */
takeback_offer: Color | null, 
/**
 * Side offering a rematch, once the game is over.
 */
rematch_offer: Color | null, 
/**
 * The rematch's id, once it started.
 */
rematch: string | null, 
/**
 * The running Makruk count.
 */
count: CountView | null, 
/**
 * Sides that may start a board's-honour count now.
 */
can_start_count: Array<Color>, 
/**
 * Sides that may stop the running board's-honour count now.
 */
can_stop_count: Array<Color>, 
/**
 * The start position.
 */
start_fen: string, 
/**
 * Every action (only in full views).
 */
actions?: Array<Action>, 
/**
 * Leave taken (or booked) by the players in this game, in time order.
 */
leave: Array<LeaveView>, 
/**
 * Whether spectators read the players' comments (see [`Game::is_public`]).
 */
public: boolean, 
/**
 * The players who marked the game public.
 */
public_marks: Array<Color>, 
/**
 * Change counter, increases with every change.
 */
version: number, };

export type GameSummary = { 
/**
 * Id.
 */
id: string, 
/**
 * Variant name.
 */
variant: string, 
/**
 * Rule option.
 */
rules: string, 
/**
 * Stage.
 */
status: string, 
/**
 * Whether the game counts for ratings.
 */
rated: boolean, 
/**
 * White's name.
 */
white: string | null, 
/**
 * Black's name.
 */
black: string | null, 
/**
 * White's rating when the game started.
 */
white_rating: ShownRating | null, 
/**
 * Black's rating when the game started.
 */
black_rating: ShownRating | null, 
/**
 * What a rated game changed for White, once over.
 */
white_rating_diff: number | null, 
/**
 * What a rated game changed for Black, once over.
 */
black_rating_diff: number | null, 
/**
 * Challenger's name.
 */
creator: string, 
/**
 * The challenger's rating in the game's pool now.
 */
creator_rating: ShownRating | null, 
/**
 * Colour asked by the challenger.
 */
creator_color: string, 
/**
 * Time control kind.
 */
tc_kind: string, 
/**
 * Initial time, ms.
 */
tc_initial_ms: number, 
/**
 * Increment, ms.
 */
tc_increment_ms: number, 
/**
 * Moves made.
 */
ply: number, 
/**
 * Result.
 */
result: string | null, 
/**
 * Reason of the result.
 */
reason: string | null, 
/**
 * Whether it is the asking user's move.
 */
your_move: boolean, 
/**
 * Last change, ms since the epoch.
 */
updated_at: number, 
/**
 * The tournament the game belongs to, if any: id.
 */
tournament_id: string | null, 
/**
 * The tournament's name.
 */
tournament_name: string | null, 
/**
 * The position the game starts from, when it is not its game's
 * standard start (a position set up in the board editor).
 */
start_fen: string | null, };

export type PoolRating = { 
/**
 * The pool's key (`makruk/blitz`).
 */
pool: string, 
/**
 * The rating as shown.
 */
rating: ShownRating, 
/**
 * Rated games played in the pool.
 */
games: number, };

export type Results = { 
/**
 * Won.
 */
wins: number, 
/**
 * Drawn.
 */
draws: number, 
/**
 * Lost.
 */
losses: number, };

export type LeaveDays = { 
/**
 * Its first day, `YYYY-MM-DD`.
 */
first_day: string, 
/**
 * Its last day (inclusive), `YYYY-MM-DD`.
 */
last_day: string, 
/**
 * Days from the first to the last, both counted.
 */
days: number, };

export type Profile = { 
/**
 * The name as registered.
 */
username: string, 
/**
 * Registered, ms since the epoch.
 */
created_at: number, 
/**
 * Ratings in every pool played, most games first.
 */
ratings: Array<PoolRating>, 
/**
 * Finished games by result.
 */
results: Results, 
/**
 * The leave the player is on now, or has booked next (correspondence
 * opponents see "on leave until ...").
 */
leave: PauseView | null, 
/**
 * The days of that leave, inclusive, in the player's time zone: what
 * the page shows (as the account page shows the player's own).
 */
leave_days: LeaveDays | null, };

export type HistoryPoint = { 
/**
 * The game.
 */
game_id: string, 
/**
 * When it ended, ms since the epoch.
 */
at: number, 
/**
 * The rating after it, rounded.
 */
rating: number, };

export type LeaderboardRow = { 
/**
 * The player.
 */
username: string, 
/**
 * The rating as shown.
 */
rating: ShownRating, 
/**
 * Rated games in the pool.
 */
games: number, };

export type LeaveState = "booked" | "running" | "over";

export type LeaveItem = { 
/**
 * Its id (to cancel or end it).
 */
id: string, 
/**
 * It begins, ms since the epoch.
 */
from: number, 
/**
 * It ends.
 */
until: number, 
/**
 * Its first day, in the player's time zone.
 */
first_day: string, 
/**
 * Its last day.
 */
last_day: string, 
/**
 * Days it takes from the allowance.
 */
days: number, 
/**
 * Booked, running or over.
 */
state: LeaveState, };

export type YearUse = { 
/**
 * The calendar year.
 */
year: number, 
/**
 * Days taken or booked.
 */
used: number, 
/**
 * Days left.
 */
left: number, };

export type LeaveOverview = { 
/**
 * Days of leave a year.
 */
allowance_days: number, 
/**
 * The time zone days are counted in.
 */
time_zone: string, 
/**
 * Today in that zone.
 */
today: string, 
/**
 * This year's use, and every other year with leave.
 */
years: Array<YearUse>, 
/**
 * Every period, in time order.
 */
periods: Array<LeaveItem>, 
/**
 * When the running leave ends, if the player is on leave.
 */
on_leave_until: number | null, };

export type PoolInfo = { 
/**
 * The game's variant name (`makruk`, `cambodian`, `makhos`).
 */
variant: string, 
/**
 * The clock: `3+2` (minutes + seconds per move) or `3d` (days per move).
 */
clock: string, 
/**
 * Players waiting in it now.
 */
waiting: number, };

export type PoolList = { 
/**
 * Every pool: each game's clocks in order.
 */
pools: Array<PoolInfo>, };

export type PoolState = { 
/**
 * `waiting`, `paired` or `none` (in no pool).
 */
status: string, 
/**
 * The pool waited in: its variant.
 */
variant: string | null, 
/**
 * Its clock.
 */
clock: string | null, 
/**
 * Waiting since, ms since the epoch.
 */
since: number | null, 
/**
 * The game paired into.
 */
game: string | null, };
