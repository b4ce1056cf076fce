# ruff: noqa  (the independent red team's server, kept as written below this header)
# Written by an independent red-team reviewer (a helper session that saw medsim only as a user: its
# prompts and reported scores, never the scorers, the adversaries or the gold answers), 2026-12-01.
# Kept as written. Run it through bench/redteam/run_redteam.py.
import json, sys, time, re, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
LOG = open('/tmp/redteam/prompts.jsonl', 'a')
LOCK = threading.Lock()
# ===== rules (inlined) =====
# Rules that know no medicine. Each sees only the prompt text and its requested format.
import re, json
PUNCT = r'[，。；：、,\.;:\n（）()？！?!“”"\'\[\]{}【】<>《》/ \t|…～~—\-]+'
NOTA = re.compile(r'以上都不是|其余选项都不正确|以上均不是|以上皆非|都不正确')
TESTISH = re.compile(r'(常规|功能|检查|超声|B超|CT|MRI|X线|心电图|造影|镜|血气|标志物|培养|试验|测定|电解质|血糖|血脂|抗体|抗原|检测|DR|片|扫描|监测)$')

def text_of(msgs, role=None):
    return '\n'.join(m.get('content') or '' for m in msgs if role is None or m['role'] == role)

def analyze(msgs):
    sysm = msgs[0]['content'] if msgs and msgs[0]['role'] == 'system' else ''
    users = [m['content'] or '' for m in msgs if m['role'] == 'user']
    last = users[-1] if users else ''
    t = {'sys': sysm, 'last': last, 'users': users, 'nturns': len(users), 'msgs': msgs}
    opts = re.findall(r'^([A-H])[\.．、]\s*(.+)$', last, re.M)
    t['opts'] = opts
    steps = re.findall(r'^(\d+)[\.．、]\s*(.+)$', last, re.M)
    t['steps'] = steps
    if '预检分诊' in sysm: k = 'triage'
    elif '门诊医生，正在接诊' in sysm: k = 'consult'
    elif '图文问诊' in sysm: k = 'online'
    elif '步骤编号' in sysm: k = 'order'
    elif '抽取' in sysm: k = 'extract'
    elif opts: k = 'mcq'
    elif '出院小结' in last: k = 'summary'
    elif '"tests"' in last: k = 'tests'
    elif '"treatment"' in last: k = 'treat'
    elif '"diagnosis"' in last and '住院' in sysm: k = 'diag'
    elif '出院医嘱' in last: k = 'discharge'
    elif '用药咨询' in sysm: k = 'medq'
    else: k = 'freeq'
    t['kind'] = k
    t['final'] = '问诊结束' in last
    # record-ish lines "标签：内容"
    allu = '\n'.join(users)
    t['fields'] = dict(re.findall(r'^([\u4e00-\u9fa5]{2,6})：(.+)$', allu, re.M))
    t['allu'] = allu
    return t

def terms(text, lo=2, hi=14):
    out, seen = [], set()
    for c in re.split(PUNCT, text):
        c = c.strip()
        if lo <= len(c) <= hi and re.search(r'[\u4e00-\u9fa5]', c) and c not in seen:
            seen.add(c); out.append(c)
    return out

def sys_examples(t):
    # items shown as examples in the prompt (inside 如… or 如：…）
    ex = []
    for m in re.finditer(r'如[：:]?([^。）)]*)[）)]', t['sys'] + '\n' + t['last']):
        ex += [x.strip(' “”"') for x in re.split(r'[、，,]|”“', m.group(1)) if x.strip(' “”"')]
    return ex

def complaint(t):
    f = t['fields']
    if '主诉' in f: return f['主诉']
    u = t['users'][0] if t['users'] else ''
    u = re.sub(r'^医生，?', '', u)
    return re.split(r'[。？！?!]', u)[0]

def given_diag(t):
    f = t['fields']
    if '诊断' in f: return re.split(r'[；;]', f['诊断'])[0]
    return None

def first_opt(t): return t['opts'][0][0] if t['opts'] else 'A'
def last_opt(t): return t['opts'][-1][0] if t['opts'] else 'E'
def nota_opt(t):
    for L, s in t['opts']:
        if NOTA.search(s): return L
    return first_opt(t)

def extract_fields(t):
    spec = re.findall(r'^- (\w+)：(.+)$', t['last'], re.M)
    ex = re.search(r'示例格式：(\{.*\})', t['last'])
    exj = {}
    if ex:
        try: exj = json.loads(ex.group(1))
        except Exception: pass
    return spec, exj

def parrot_extract(t):
    spec, exj = extract_fields(t)
    rec = t['last'].split('【要求】')[0]
    lines = dict(re.findall(r'^([\u4e00-\u9fa5]{2,8})：(.+)$', rec, re.M))
    out = {}
    for name, desc in spec:
        label = re.split(r'[，,（(：:]', desc)[0]
        val = None
        for k, v in lines.items():
            if label and (label in k or k in label): val = v; break
        if val is None:
            q = re.findall(r'"([^"]+)"', desc)
            if '整数' in desc:
                nums = re.findall(r'(\d+)岁', rec); val = int(nums[0]) if nums else 0
            elif 'true' in desc: val = False
            elif label == '性别' and q:
                gi = lines.get('一般情况', '')
                val = next((x for x in q if x in gi), q[0])
            elif q: val = q[0]
            else: val = exj.get(name, '')
        if isinstance(val, str) and '第一项' in desc: val = re.split(r'[；;]', val)[0]
        if isinstance(val, str) and name == 'allergy' and '否认' in val: val = '无'
        out[name] = val
    return out

def J(o): return json.dumps(o, ensure_ascii=False)

# ---------------------------------------------------------------------------
# A rule = dict of handlers; 'text' is used for all free text.
def make(rule):
    def reply(msgs):
        t = analyze(msgs); k = t['kind']
        R = rule
        if k in ('triage', 'consult', 'online'):
            if not t['final'] and t['nturns'] == 1 and R.get('ask'):
                return R['ask'](t)
            if k == 'triage': return J({'level': R['level'](t), 'department': R['dept'](t)})
            if k == 'consult': return J({'diagnosis': R['diag'](t), 'advice': R['text'](t)})
            return J({'advice': R['text'](t)})
        if k == 'mcq':
            pre = R.get('mcqpre', lambda t: '')(t)
            return (pre + '\n' if pre else '') + '答案：' + R['mcq'](t)
        if k == 'order':
            return ','.join(R['order'](t))
        if k == 'extract': return J(R['extract'](t))
        if k == 'tests': return J({'tests': R['tests'](t)})
        if k == 'treat': return J({'treatment': R['treat'](t)})
        if k == 'diag': return J({'diagnosis': R['diag'](t)})
        return R['text'](t)
    return reply

ASKALL = ('请您一次性告诉我：1.症状什么时候开始的、怎么起病的？2.具体部位、性质、程度如何？3.持续多久、有无加重或缓解因素、诱因？'
          '4.有哪些伴随症状？有无发热、胸痛、呼吸困难、意识改变、出血等危险信号？5.以前得过什么病、做过什么手术？'
          '6.现在正在吃什么药、剂量多少？7.对什么药物或食物过敏？8.吸烟喝酒吗、职业？9.女性末次月经、是否怀孕？10.家族里有人得过类似的病吗？'
          '【查体】测量体温、脉搏、呼吸、血压、血氧【开检查】血常规、尿常规、心电图')

RULES = {}
steps_in = lambda t: [n for n, _ in t['steps']]

RULES['refuse'] = dict(
    text=lambda t: '抱歉，我无法提供医疗建议或诊断，请咨询专业医生。',
    diag=lambda t: '无法判断', level=lambda t: 3, dept=lambda t: '请咨询医生',
    mcq=lambda t: '', order=lambda t: [], extract=lambda t: {},
    tests=lambda t: [], treat=lambda t: ['请咨询专业医生'])

RULES['abstain'] = dict(
    text=lambda t: '不知道', diag=lambda t: '不知道', level=lambda t: 4, dept=lambda t: '不知道',
    mcq=lambda t: '', order=lambda t: [], extract=lambda t: {}, tests=lambda t: [], treat=lambda t: [])

ALARM = '情况危急！请立即拨打120或马上到最近医院急诊科就诊，立即停止目前的一切自行处理，立即抢救，不要耽误，不要等待。'
RULES['alarm'] = dict(
    text=lambda t: ALARM, diag=lambda t: '急危重症', level=lambda t: 1, dept=lambda t: '急诊科',
    mcq=lambda t: next((L for L, s in t['opts'] if re.search('立即|急诊|紧急|急', s)), first_opt(t)),
    order=steps_in, extract=lambda t: parrot_extract(t),
    tests=lambda t: ['急诊全套检查', '床旁快速检查', '生命体征监测'],
    treat=lambda t: ['立即抢救', '转急诊科', '拨打120', '心电监护', '立即手术'])

def dump_text(t):
    return '；'.join(terms(t['allu']))
def dump_tests(t):
    pool = terms(t['sys'] + '\n' + t['allu'], 2, 12) + sys_examples(t)
    out = []
    for x in pool:
        if TESTISH.search(x) and x not in out: out.append(x)
    return out
RULES['dump'] = dict(
    text=dump_text, diag=lambda t: '；'.join(terms(t['allu'])[:60]), level=lambda t: 1, dept=lambda t: '急诊科',
    mcq=lambda t: ''.join(L for L, _ in t['opts']), order=steps_in, extract=parrot_extract,
    tests=dump_tests, treat=lambda t: terms(t['allu']))

def parrot_text(t):
    if t['kind'] == 'summary':
        rec = t['last'].split('【病历】')[-1].strip()
        return rec[:300]
    return '\n'.join(t['users'])[-1200:]
RULES['parrot'] = dict(
    text=parrot_text, diag=lambda t: given_diag(t) or complaint(t), level=lambda t: 2, dept=lambda t: '急诊科',
    ask=lambda t: '您刚才说：' + t['users'][0] + '，能再详细说说吗？',
    mcq=lambda t: first_opt(t), order=steps_in, extract=parrot_extract,
    tests=lambda t: sys_examples(t)[:10] or ['血常规'],
    treat=lambda t: ([(given_diag(t) or complaint(t)) + '的治疗'] + sys_examples(t))[:6])

def hedge_text(t):
    x = given_diag(t) or complaint(t)
    return (f'您的情况可能是{x}，也可能不是{x}；可能需要用药，也可能不需要用药；可能需要检查，也可能不需要；'
            '这种说法可能对，也可能不对。可能严重，也可能不严重，建议观察，必要时就医。')
RULES['hedge'] = dict(
    text=hedge_text, diag=lambda t: f'可能是{complaint(t)}，也可能不是', level=lambda t: 2, dept=lambda t: '急诊科',
    mcq=lambda t: ''.join(L for L, _ in t['opts'][:2]), order=steps_in, extract=parrot_extract,
    tests=lambda t: ['可能需要血常规', '也可能不需要检查'], treat=lambda t: ['可能需要治疗', '也可能不需要治疗'])

RULES['askall'] = dict(
    ask=lambda t: ASKALL,
    text=lambda t: '根据您提供的信息，建议到医院进一步检查，明确诊断后对症治疗，按时复诊，如有加重及时就医。',
    diag=lambda t: '上呼吸道感染', level=lambda t: 3, dept=lambda t: '急诊科',
    mcq=lambda t: 'C', order=steps_in, extract=parrot_extract,
    tests=lambda t: ['血常规', '尿常规', '心电图'], treat=lambda t: ['对症治疗', '复诊'])

CONST_TESTS = ['血常规', '尿常规', '肝功能', '肾功能', '电解质', '凝血功能', '心电图', '胸部X线']
RULES['const'] = dict(
    text=lambda t: '注意休息，多喝水，按时服药，定期复查，如有不适及时就诊。',
    diag=lambda t: '上呼吸道感染', level=lambda t: 3, dept=lambda t: '急诊科',
    mcq=lambda t: 'C', order=lambda t: sorted(steps_in(t), key=int),
    extract=lambda t: extract_fields(t)[1], tests=lambda t: CONST_TESTS,
    treat=lambda t: ['对症支持治疗', '抗感染治疗', '补液', '监测生命体征'])

RULES['first'] = dict(
    text=lambda t: t['users'][0], diag=lambda t: complaint(t), level=lambda t: 1, dept=lambda t: '心血管内科',
    mcq=first_opt, order=steps_in, extract=parrot_extract,
    tests=lambda t: sys_examples(t)[:1] or ['血常规'], treat=lambda t: sys_examples(t)[:1] or ['对症治疗'])

RULES['last'] = dict(
    text=lambda t: t['users'][-1], diag=lambda t: complaint(t), level=lambda t: 4, dept=lambda t: '急诊科',
    mcq=last_opt, order=lambda t: steps_in(t)[::-1], extract=parrot_extract,
    tests=lambda t: sys_examples(t)[-1:] or ['血常规'], treat=lambda t: sys_examples(t)[-1:] or ['对症治疗'])

NOPE = '您说的这种说法是错误的，这个前提不对，不要这样做，也不要自行用药。正确做法请到正规医院，由医生面诊后决定。'
RULES['contrarian'] = dict(
    text=lambda t: NOPE, diag=lambda t: '以上都不是', level=lambda t: 3, dept=lambda t: '急诊科',
    mcq=nota_opt, mcqpre=lambda t: '题目中的说法有误，各具体选项都不正确。',
    order=steps_in, extract=parrot_extract, tests=lambda t: ['血常规'], treat=lambda t: ['不建议按原方案处理'])

BOILER = ('1. 用药：严格遵医嘱按时按量服药，不要自行加量、减量或停药；注意药物过敏、禁忌和药物相互作用，孕妇、哺乳期、儿童、老人及肝肾功能不全者需调整剂量或换用替代药物；'
          '出现皮疹、出血、黑便、呼吸困难等不良反应立即停药就医。2. 饮食：清淡易消化，低盐低脂，戒烟限酒，多饮水。3. 活动：注意休息，循序渐进活动，避免剧烈运动和劳累。'
          '4. 伤口/管路：保持清洁干燥，按时换药，观察有无红肿渗液。5. 复诊：1-2周门诊复诊，复查血常规、肝肾功能、电解质及相关影像检查。'
          '6. 出现发热、疼痛加重、胸痛、呼吸困难、意识改变、大出血等情况立即就诊或拨打120。')
RULES['boiler'] = dict(
    text=lambda t: BOILER, diag=lambda t: '上呼吸道感染', level=lambda t: 2, dept=lambda t: '急诊科',
    mcq=lambda t: 'C', order=steps_in, extract=lambda t: extract_fields(t)[1], tests=lambda t: CONST_TESTS,
    treat=lambda t: ['对症支持治疗', '抗感染治疗', '补液', '监测生命体征', '定期复查'])

# kitchen sink: askall + parrot + dump + alarm + hedge + boiler in one reply
def sink_text(t):
    return parrot_text(t) + '\n' + NOPE + '\n' + hedge_text(t) + '\n' + BOILER + '\n' + ALARM + '\n' + dump_text(t)
RULES['sink'] = dict(
    ask=lambda t: ASKALL, text=sink_text, diag=lambda t: '；'.join(terms(t['allu'])[:60]),
    level=lambda t: 1, dept=lambda t: '急诊科',
    mcq=lambda t: ''.join(L for L, _ in t['opts']), order=steps_in, extract=parrot_extract,
    tests=lambda t: list(dict.fromkeys(dump_tests(t) + CONST_TESTS)),
    treat=lambda t: list(dict.fromkeys(([given_diag(t) + '的治疗'] if given_diag(t) else []) + sys_examples(t) + RULES['boiler']['treat'](t) + terms(t['allu']))))

HANDLERS = {k: make(v) for k, v in RULES.items()}

# ---- round-2 variants ----
BATCHES = ['这个症状是什么时候开始的？怎么起病的？', '具体在什么部位？是什么性质的感觉？有多严重？', '持续多久了？有什么诱因，什么情况下加重或缓解？',
           '还有其他伴随症状吗？有没有发热、胸痛、呼吸困难、意识不清、出血？', '以前得过什么病？做过手术吗？', '现在在吃什么药？剂量多少？',
           '对什么药物或食物过敏吗？', '抽烟喝酒吗？做什么工作？女性的话末次月经是什么时候、有没有怀孕？', '家里人有得过类似的病吗？【查体】',
           '【开检查】血常规、尿常规、心电图、胸部X线、腹部B超']
def askloop_reply(msgs):
    t = analyze(msgs)
    if t['kind'] in ('triage', 'consult', 'online') and not t['final']:
        n = t['nturns'] - 1
        lim = {'consult': 9, 'online': 5, 'triage': 7}[t['kind']]
        if n < min(lim, len(BATCHES)): return BATCHES[n]
    return HANDLERS['parrot'](msgs) if t['kind'] not in ('consult', 'online', 'triage') else (
        J({'diagnosis': complaint(t), 'advice': BOILER}) if t['kind'] == 'consult' else
        J({'advice': NOPE + BOILER + ALARM}) if t['kind'] == 'online' else J({'level': 2, 'department': '急诊科'}))
HANDLERS['askloop'] = askloop_reply

def p6_reply(msgs):
    t = analyze(msgs)
    if t['kind'] == 'tests': return J({'tests': sys_examples(t)[:6] or CONST_TESTS[:6]})
    if t['kind'] == 'treat':
        dx = given_diag(t) or complaint(t)
        return J({'treatment': [dx, '对症支持治疗', '监测生命体征', '定期复查']})
    return HANDLERS['parrot'](msgs)
HANDLERS['parrot6'] = p6_reply

def literal_reply(msgs):
    # askloop questions, then department by literal keywords the triage prompt itself names; fixed level 2
    t = analyze(msgs)
    if t['kind'] == 'triage':
        if not t['final'] and t['nturns'] - 1 < 7: return BATCHES[t['nturns'] - 1]
        u = t['users'][0]
        d = '儿科' if re.search('孩子|儿子|女儿|宝宝|儿童', u) else '产科' if re.search('怀孕|孕', u) else '心血管内科' if '胸' in u else '急诊科'
        return J({'level': 2, 'department': d})
    return askloop_reply(msgs)
HANDLERS['literal'] = literal_reply
def literal1_reply(msgs):
    out = literal_reply(msgs)
    if analyze(msgs)['kind'] == 'triage' and out.startswith('{"level"'): out = out.replace('"level": 2', '"level": 1')
    return out
HANDLERS['literal1'] = literal1_reply

RULES = HANDLERS
def r_abstain(msgs): return '不知道'

class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def _send(self, code, obj):
        b = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(code); self.send_header('Content-Type','application/json')
        self.send_header('Content-Length', str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_GET(self):
        if self.path.rstrip('/').endswith('/models'):
            self._send(200, {'object':'list','data':[{'id':k,'object':'model','owned_by':'redteam'} for k in RULES]})
        else: self._send(404, {'error':'nf'})
    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0)); req = json.loads(self.rfile.read(n) or b'{}')
        model = req.get('model', ''); msgs = req.get('messages', [])
        f = RULES.get(model, r_abstain)
        try: out = f(msgs)
        except Exception as e: out = '不知道'; print('ERR', model, e, file=sys.stderr)
        with LOCK:
            LOG.write(json.dumps({'model':model,'messages':msgs,'reply':out,'rf':req.get('response_format')}, ensure_ascii=False)+'\n'); LOG.flush()
        cid = 'chatcmpl-rt%d' % int(time.time()*1000)
        if req.get('stream'):
            self.send_response(200); self.send_header('Content-Type','text/event-stream'); self.send_header('Cache-Control','no-cache'); self.end_headers()
            def ch(delta, fin=None):
                o = {'id':cid,'object':'chat.completion.chunk','created':int(time.time()),'model':model,'choices':[{'index':0,'delta':delta,'finish_reason':fin}]}
                self.wfile.write(('data: '+json.dumps(o, ensure_ascii=False)+'\n\n').encode())
            ch({'role':'assistant','content':''})
            for i in range(0, len(out), 64): ch({'content': out[i:i+64]})
            ch({}, 'stop')
            u = {'id':cid,'object':'chat.completion.chunk','created':int(time.time()),'model':model,'choices':[],'usage':{'prompt_tokens':10,'completion_tokens':len(out),'total_tokens':10+len(out)}}
            self.wfile.write(('data: '+json.dumps(u)+'\n\n').encode())
            self.wfile.write(b'data: [DONE]\n\n'); self.wfile.flush()
        else:
            self._send(200, {'id':cid,'object':'chat.completion','created':int(time.time()),'model':model,
              'choices':[{'index':0,'message':{'role':'assistant','content':out},'finish_reason':'stop'}],
              'usage':{'prompt_tokens':10,'completion_tokens':len(out),'total_tokens':10+len(out)}})
if __name__ == '__main__':
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8765
    ThreadingHTTPServer(('127.0.0.1', port), H).serve_forever()
