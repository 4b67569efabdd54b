# Nodes per second and depth reached with THREADS threads at go movetime MS,
# over the first 12 openings of data/openings/makruk.epd (issue 40 item 3).
# usage: python3 threads_nps.py THAIBOARD THREADS MS
import os, subprocess, sys, re
binary, threads, ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fens = [l.split(';')[0].strip() for l in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../data/openings/makruk.epd')) if l.strip() and not l.startswith('#')][:12]
p = subprocess.Popen([binary, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
def until(pfx):
    out=[]
    while True:
        l=p.stdout.readline()
        out.append(l)
        if l.startswith(pfx): return out
send('uci'); until('uciok')
send(f'setoption name Threads value {threads}'); send('setoption name Hash value 64'); send('isready'); until('readyok')
tn=0; td=0
for f in fens:
    parts=f.split()
    fen=' '.join(parts[:4])+' 0 1' if len(parts)<6 else f
    send('ucinewgame'); send('position fen '+fen); send('isready'); until('readyok')
    send(f'go movetime {ms}')
    out=until('bestmove')
    infos=[l for l in out if l.startswith('info') and ' depth ' in l]
    last=infos[-1]
    n=int(re.search(r' nodes (\d+)',last).group(1)); d=int(re.search(r' depth (\d+)',last).group(1))
    tn+=n; td+=d; nps=int(re.search(r" nps (\d+)",last).group(1)); tnps=globals().get("tnps",0)+nps; globals()["tnps"]=tnps
print(f'threads {threads}: mean depth {td/len(fens):.2f} mean nodes {tn/len(fens):.0f} nps {tnps/len(fens):.0f}')
send('quit')
