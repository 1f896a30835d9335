"""The words for secrets, in the languages TabAgent speaks and those most used on the web: what
names a password, a one-time or texted code, a PIN, a recovery or seed phrase, a card number, a
key or a token. One list, read by Python (an MCP server's form that asks for one is refused:
mcp/elicitation.py) and by the content scripts through wire.js SECRET_WORDS (a field named or
labelled so is a password field, which TabAgent never types into nor reads out:
extension/content/secret-fields.js); a test checks both read it alike.

Languages: English and German (TabAgent's own, _locales/), and the ten content languages most
used on the web (W3Techs: English, Spanish, German, Japanese, French, Russian, Portuguese,
Italian, Dutch, Polish), with Chinese, Turkish, Korean, Arabic, Indonesian and Vietnamese, the
most used by the web's people. A miss costs a secret; a false alarm costs a form or a typed
field, which the user then fills in themselves: the lists lean to the alarm.

How an entry is written: words as they are spelt (accents, case and punctuation do not count:
text and entries are both read by `normalized`); "*" at a word's start or end stands for any
letters (German and Dutch join words: "*passwort*" is in "Bankpasswort"); an entry in a script
written without spaces (Chinese, Japanese, Korean) is found anywhere in the text.
"""

from __future__ import annotations

import re
import unicodedata

SECRET_WORDS: dict[str, tuple[str, ...]] = {
    "password": (
        "password", "passwords", "passwd", "pwd", "passphrase*", "passcode*", "pass code", "pass word",
        "*passwort*", "*passworter*", "*kennwort*", "zugangsdaten", "mot de passe", "mots de passe", "mdp",
        "identifiants", "code secret", "code confidentiel", "contraseña*", "clave secreta", "clave de acceso",
        "senha*", "palavra-passe", "*wachtwoord*", "hasło", "hasła", "hasłem", "haśle", "hasłu", "парол*",
        "şifre*", "kata sandi", "mật khẩu", "パスワード", "暗証番号", "密码", "密碼", "口令", "비밀번호", "암호",
        "*كلمة المرور", "*كلمة السر", "كلمه عبور",
    ),
    "one_time_code": (
        "one time code*", "one time password*", "one time passcode*", "one time pin", "otp", "totp", "2fa", "mfa",
        "two factor code*", "two step code*", "verification code*", "security code*", "authentication code*",
        "auth code*", "login code*", "sign in code*", "signin code*", "access code*", "sms code*", "text code*",
        "digit code*", "*bestätigungscode*", "*verifizierungscode*", "*sicherheitscode*", "*einmalcode*",
        "*einmalpasswort*", "code de vérification", "code de sécurité", "code à usage unique", "code unique",
        "código de verificación", "código de seguridad", "código de un solo uso", "código único",
        "código de verificação", "código de segurança", "código de uso único", "codice di verifica",
        "codice di sicurezza", "codice monouso", "codice otp", "*verificatiecode*", "*beveiligingscode*",
        "eenmalige code", "kod weryfikacyjn*", "kod sms", "kod jednorazow*", "kod bezpieczeństwa",
        "код* подтвержден*", "одноразов* код*", "код* из смс", "смс код*", "код* безопасности", "doğrulama kod*",
        "tek kullanımlık*", "sms kod*", "güvenlik kod*", "kode verifikasi", "kode otp", "kode keamanan",
        "kode sekali pakai", "mã xác minh", "mã xác thực", "認証コード", "確認コード", "セキュリティコード", "ワンタイム",
        "验证码", "驗證碼", "校验码", "动态码", "一次性密码", "安全码", "安全碼", "인증번호", "인증 번호", "인증코드",
        "인증 코드", "보안코드", "보안 코드", "*رمز التحقق", "*رمز التأكيد", "*رمز الأمان",
    ),
    # A bank's transaction number (German TAN): not read from field labels, where "Tan" is a name.
    "transaction_number": ("tan", "tans", "mtan", "smstan", "sms tan", "pushtan", "phototan", "chiptan"),
    "pin": (
        "pin", "pins", "pin code*", "pin number*", "*pinnummer*", "*geheimzahl*", "*geheimnummer*", "pincode",
        "пин", "пин-код*", "pin码", "*الرقم السري",
    ),
    "recovery_phrase": (
        "recovery phrase*", "recovery code*", "recovery key*", "recovery word*", "seed phrase*", "seed word*",
        "secret phrase*", "secret recovery*", "mnemonic*", "backup code*", "backup phrase*",
        "*wiederherstellungsphrase*", "*wiederherstellungscode*", "*wiederherstellungsschlüssel*",
        "phrase de récupération", "phrase secrète", "phrase mnémonique", "frase de recuperación", "frase semilla",
        "frase de recuperação", "frase semente", "frase di recupero", "*herstelzin*", "*herstelcode*", "*seedzin*",
        "fraza odzyskiwania", "фраз* восстановлени*", "сид-фраз*", "мнемоническ* фраз*", "секретн* фраз*",
        "kurtarma ifade*", "kurtarma kelime*", "frasa pemulihan", "復元フレーズ", "リカバリーフレーズ", "シードフレーズ",
        "助记词", "助記詞", "恢复短语", "복구 구문", "시드 구문", "*عبارة الاسترداد",
    ),
    "card_number": (
        "card number*", "card no", "credit card*", "debit card*", "cvv", "cvv2", "cvc", "cvc2", "csc",
        "*kartennummer*", "*prüfnummer*", "*prüfziffer*", "numéro de carte", "cryptogramme", "número de tarjeta",
        "número do cartão", "número de cartão", "numero della carta", "numero di carta", "numero carta",
        "*kaartnummer*", "numer karty", "номер* карт*", "kart numara*", "nomor kartu", "カード番号", "卡号", "卡號",
        "카드번호", "카드 번호", "*رقم البطاقة",
    ),
    "key": (
        "secret", "secrets", "token", "tokens", "api key*", "apikey*", "private key*", "secret key*", "access key*",
        "access token*", "credential*", "iban", "social security", "ssn", "api-schlüssel*", "privater schlüssel*",
        "clé api", "clé privée", "clave privada", "chave privada", "chiave privata", "privé sleutel*",
        "privésleutel*", "klucz prywatn*", "приватн* ключ*", "закрыт* ключ*", "özel anahtar", "kunci pribadi",
        "秘密鍵", "私钥", "私鑰", "개인 키", "개인키", "*المفتاح الخاص",
    ),
}

# A code the message says was sent to the user, or how many digits it has: a one-time code too
# ("the verification code we texted you", "enter the 6-digit code", "den Code per SMS").
CODE_WORDS = ("code", "codes", "codigo", "codice", "kod", "kodu", "kode", "код*", "コード", "码", "碼", "코드", "رمز")
CODE_HINTS = (
    "texted", "texting", "text message*", "by text", "via text", "sms", "we sent", "we have sent", "we've sent",
    "we just sent", "sent to your", "sent you", "authenticator*", "digit", "digits", "*stellig*", "gesendet",
    "geschickt", "envoyé*", "reçu*", "chiffres", "enviado*", "enviamos", "dígitos", "inviato", "abbiamo inviato",
    "cifre", "verzonden", "gestuurd", "cijfers", "wysłan*", "cyfr*", "отправ*", "прислал*", "присланн*", "цифр*",
    "gönderilen", "gönderdiğimiz", "haneli", "dikirim", "kami kirim", "angka", "送信", "送った", "桁", "短信", "簡訊",
    "发送", "位数", "문자", "전송", "자리", "*أرسلنا", "*المرسل", "*أرقام",
)

# What says not to give a secret, and the secrets it governs. A negation of a verb ("do not give
# us your PIN", as the reference server writes; "we will never ask for your password"; "ne
# communiquez jamais votre mot de passe") governs what follows a verb of giving next to it; a
# negating determiner ("no password needed", "ohne Passwort") governs what follows it. Either
# governs a list ("your phone number, PIN, or other sensitive info"), and nothing past another
# verb: "No worries, enter your password" asks for one, and so does "never share your password
# with anyone but us" (an exception after the secret undoes it).
NEGATIONS = ("not", "never", "dont", "nicht", "nie", "niemals", "ne", "n", "pas", "jamais", "nunca", "jamás", "não",
             "non", "mai", "niet", "nooit", "nigdy", "не", "никогда", "никому")
NEGATING = ("no", "without", "kein*", "ohne", "sans", "aucun*", "sin", "ningún*", "ninguna*", "sem", "nenhum*",
            "senza", "nessun*", "geen", "zonder", "bez", "без")
CONTRACTED = ("don", "doesn", "won", "can", "shouldn", "mustn", "didn", "isn", "aren", "wouldn")  # don't: "don t"
GIVING = (
    "give", "share", "send", "enter", "type", "provide", "tell", "reveal", "disclose", "write", "post", "include",
    "use", "input", "ask", "asking", "need", "require", "geben", "teilen", "senden", "nennen", "eingeben", "weiter",
    "weitergeben", "fragen", "donnez", "partagez", "communiquez", "saisissez", "entrez", "envoyez", "indiquez",
    "demanderons", "demandons", "comparta", "compartas", "des", "introduzca", "ingrese", "envíe", "pediremos",
    "compartilhe", "partilhe", "informe", "digite", "pediremos", "condividere", "condividi", "comunicare",
    "inserire", "inviare", "chiederemo", "deel", "geef", "stuur", "voer", "vragen", "podawaj", "podawać",
    "udostępniaj", "wpisuj", "wysyłaj", "сообщайте", "передавайте", "вводите", "называйте", "просить", "попросим",
)
FILLERS = (
    "us", "me", "anyone", "your", "you", "a", "an", "the", "any", "our", "my", "it", "to", "for", "ever", "please",
    "here", "will", "we", "do", "does", "should", "must", "can", "t", "sie", "ihr", "ihre", "ihren", "uns", "dein",
    "deine", "deinen", "bitte", "werden", "wir", "ein", "votre", "vos", "le", "la", "les", "un", "une", "nous",
    "de", "su", "tu", "el", "nos", "sua", "seu", "o", "vamos", "il", "tua", "vostra", "je", "uw", "het", "in",
    "swojego", "swoje", "twojego", "nikomu", "свой", "свою", "ваш", "вашего", "мы", "будем",
)
AND_OR = ("or", "and", "nor", "oder", "und", "noch", "ou", "et", "ni", "o", "y", "u", "e", "nem", "né", "of", "en",
          "lub", "i", "ani", "или", "и", "ни", "veya", "ve", "atau", "dan", ",")
# Written without spaces: a negation right before the secret, with a verb of giving between.
NEGATED_CJK = re.compile("(?:请勿|請勿|不要|切勿|绝不|絕不|无需|無需|不需要|不会|不會)(?:提供|输入|輸入|分享|透露|告诉|告訴|发送|發送)?"
                         "(?:您的|你的|任何)?$")
EXCEPTIONS = ("but", "except", "other than", "besides", "außer", "sauf", "excepto", "salvo", "tranne", "behalve",
              "oprócz", "кроме")
# Codes that are no secret: the word before "code" says which ("ZIP code", "promo code").
NOT_SECRET_CODES = (
    "zip", "postal", "post", "area", "country", "promo", "promotional", "discount", "coupon", "voucher", "gift",
    "product", "reference", "booking", "confirmation", "tracking", "order", "source", "qr", "bar", "colour", "color",
    "language", "currency", "airport", "invite", "invitation", "referral", "sort", "swift", "bic", "error", "status",
    "dress", "postleitzahl", "gutschein", "rabatt", "postal", "promo", "promocional", "descuento", "codice fiscale",
)

# What parts a text into clauses (a sentence, a parenthesis) and, for a negation, into parts (a comma).
CLAUSES = re.compile(r"[.;:!?()\[\]\n。！？；：]+")
PARTS = re.compile(r"[,،、，—–]+")
_NO_SPACES = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u1100-\u11ff\uf900-\ufaff]")


def normalized(text: str) -> str:
    """Text as the lists are read: a camelCase or snake_case name in words, accents and case
    gone, everything but letters and digits a single space."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", str(text or ""))
    bare = "".join(c for c in unicodedata.normalize("NFKD", spaced) if unicodedata.category(c) != "Mn")
    return " ".join(re.sub(r"[\W_]+", " ", bare.lower()).split())


def entry_pattern(entry: str) -> str:
    """One entry as a regular expression over normalized text (the same in JavaScript, with
    [\\p{L}\\p{N}] for a letter or digit: extension/content/secret-fields.js)."""
    words = []
    for word in entry.split():
        core = re.escape(normalized(word.strip("*")))
        words.append(("[^\\W_]*" if word.startswith("*") else "") + core + ("[^\\W_]*" if word.endswith("*") else ""))
    body = " ".join(words)
    return body if _NO_SPACES.search(entry) else f"(?<![^\\W_]){body}(?![^\\W_])"


def _alternatives(entries) -> re.Pattern:
    return re.compile("|".join(entry_pattern(e) for e in sorted(entries, key=len, reverse=True)))


_SECRET = _alternatives(e for entries in SECRET_WORDS.values() for e in entries)
_CODE, _HINT, _EXCEPTION = _alternatives(CODE_WORDS), _alternatives(CODE_HINTS), _alternatives(EXCEPTIONS)
_NEGATION, _NEGATING = _alternatives(NEGATIONS), _alternatives(NEGATING)
_WORDS = {name: frozenset(normalized(" ".join(words)).split() + ([","] if name == "and_or" else []))
          for name, words in (("giving", GIVING), ("fillers", FILLERS), ("and_or", AND_OR), ("contracted", CONTRACTED))}
_NOT_SECRET = frozenset(normalized(" ".join(NOT_SECRET_CODES)).split())
MAX_ITEM_WORDS, MAX_ITEMS = 4, 6
_BY_KINDS: dict[tuple[str, ...], re.Pattern] = {}


def secret_word_in(text: str, kinds: tuple[str, ...] = tuple(SECRET_WORDS)) -> str | None:
    """The first secret word of `kinds` in `text` (normalized), whatever is said around it: how a
    field's name or label is read (extension/content/secret-fields.js `secretWordIn`)."""
    pattern = _BY_KINDS.get(kinds) or _BY_KINDS.setdefault(kinds, _alternatives(e for k in kinds for e in SECRET_WORDS[k]))
    found = pattern.search(normalized(text))
    return found.group() if found else None


def names_a_code(text: str) -> bool:
    """Whether `text` speaks of a one-time code, a PIN, a TAN or a password ("Your verification
    code is 482913", "Your code: 482913"), not of a ZIP or promo code."""
    kinds = ("one_time_code", "pin", "transaction_number", "password")
    return secret_word_in(text, kinds) is not None or _secret_code(normalized(text)) is not None


def secret_named(text: str) -> str | None:
    """The secret `text` names in a clause that does not say not to give it (its words, as
    found), or None."""
    for clause in CLAUSES.split(str(text or "")):
        words = " , ".join(normalized(part) for part in PARTS.split(clause))
        for found in _SECRET.finditer(words):
            if not _negated(words[:found.start()]) or _EXCEPTION.search(words[found.end():].split(" , ")[0]):
                return found.group()
        code, hint = _secret_code(words), _HINT.search(words)
        if code and hint:
            return f"{code} ({hint.group()})"
    return None


def _secret_code(words: str) -> str | None:
    """A code word whose word before does not say it is no secret (a ZIP code, a promo code)."""
    for found in _CODE.finditer(words):
        if _word_before(words, found.start()) not in _NOT_SECRET:
            return found.group()
    return None


def _word_before(words: str, end: int) -> str:
    """The last word of `words[:end]` ("" if none), found from `end` back rather than by splitting
    all that comes before: a long page of ZIP and promo codes took time growing with its square."""
    while end and words[end - 1] == " ":  # normalized text: words apart by spaces, and nothing else
        end -= 1
    return words[words.rfind(" ", 0, end) + 1:end]


def _is(word: str, pattern: re.Pattern) -> bool:
    return pattern.fullmatch(word) is not None


def _negated(before: str) -> bool:
    """Whether a negation governs what comes right after `before` (the clause up to a secret):
    read backwards, the list the secret ends (items of a few words, no verb in them), then the
    verbs of giving and words like "your", then the negation."""
    if NEGATED_CJK.search(before):
        return True
    tokens, giving, words_in_item, items = before.split(), False, 0, 1
    for n in range(len(tokens) - 1, -1, -1):
        word = tokens[n]
        if _is(word, _NEGATING):  # ("no" also negates a verb in Spanish: "no comparta su contraseña")
            return True
        if _is(word, _NEGATION) or (word == "t" and n and tokens[n - 1] in _WORDS["contracted"]):
            return giving or _gives_before(tokens[:n])
        if word in _WORDS["giving"]:
            giving = True
        elif giving and word not in _WORDS["fillers"]:
            return False
        elif not giving and word in _WORDS["and_or"]:
            items, words_in_item = items + 1, 0
        elif not giving:
            words_in_item += 1
        if items > MAX_ITEMS or words_in_item > MAX_ITEM_WORDS:
            return False
    return False


def _gives_before(tokens: list[str]) -> bool:
    """A verb of giving just before a negation, as German and French put it ("geben Sie niemals")."""
    for word in reversed(tokens[-3:]):
        if word in _WORDS["giving"]:
            return True
        if word not in _WORDS["fillers"]:
            return False
    return False
