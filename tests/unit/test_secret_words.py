"""The words for secrets (tabagent/secret_words.py), in the languages TabAgent speaks and those
most used on the web: what asks for a password, a one-time or texted code, a PIN, a recovery or
seed phrase, a card number or a key is found; a negation spares only the secret it governs; the
ordinary fields of a form (a name, a day, a ZIP code, a promo code) are not taken for secrets."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tabagent.secret_words import names_a_code, normalized, secret_named, secret_word_in

ROOT = Path(__file__).resolve().parents[2]
FIELDS_MODULE = ROOT / "extension" / "shared" / "secret-words.js"

ASKS = [
    # the examples
    "Please enter the verification code we texted you", "Your recovery phrase", "Passwort", "mot de passe",
    "No worries, enter your password",
    # English, every kind, as names and sentences
    "password", "newPassword", "user_pass_word", "Passcode", "Enter your PIN", "pinCode", "One-time code",
    "otpCode", "2FA code", "Security code", "Type the 6-digit code", "the code we sent to your phone",
    "Seed phrase (12 words)", "mnemonic", "backup codes", "Card number", "cardNumber", "CVV", "API key", "apiKey",
    "access token", "Private key", "Don't forget your password", "Never share your password with anyone but us",
    "Please don't type your password into this form, just your PIN", "Enter a PIN without spaces",
    # German
    "Kennwort", "Ihr Bankpasswort", "Bestätigungscode", "Geheimzahl", "Wiederherstellungsphrase", "Kartennummer",
    "Den Code per SMS eingeben", "Vergessen Sie nicht Ihr Passwort", "TAN",
    # the ten content languages most used on the web, and more of the web's people
    "Contraseña", "Código de verificación", "Número de tarjeta", "Frase semilla",  # Spanish
    "Code reçu par SMS", "Numéro de carte", "Phrase de récupération",  # French
    "パスワード", "認証コード", "カード番号", "暗証番号",  # Japanese
    "Пароль", "Код подтверждения", "Номер карты", "Сид-фраза",  # Russian
    "Senha", "Código de verificação", "Número do cartão",  # Portuguese
    "Codice di verifica", "Numero della carta", "Frase di recupero",  # Italian
    "Wachtwoord", "Verificatiecode", "Kaartnummer", "Herstelzin",  # Dutch
    "Hasło", "Kod weryfikacyjny", "Numer karty", "Kod SMS",  # Polish
    "密码", "短信验证码", "助记词", "银行卡号", "驗證碼",  # Chinese
    "Şifre", "Doğrulama kodu", "Kart numarası",  # Turkish
    "비밀번호", "인증번호", "카드 번호",  # Korean
    "كلمة المرور", "رمز التحقق", "رقم البطاقة",  # Arabic
    "Kata sandi", "Kode verifikasi", "Nomor kartu",  # Indonesian
    "Mật khẩu", "Mã xác minh",  # Vietnamese
]

NOT_SECRETS = [
    "Your name", "Email", "Which day", "How many guests", "A vegetarian menu", "Your date of birth",
    "Favorite first line of a story", "Portfolio / personal website", "Street address", "Enter your 5-digit ZIP code",
    "Promo code we texted you", "Postal code", "Country code", "Booking reference", "Choose your favorite hero",
    "Who is coming, and when?", "Keyword", "Palabra clave", "Parola chiave", "Comment",
    # a negation that governs the secret
    "Do not give us your PIN", "We will never ask for your password", "No password needed", "without a PIN",
    "Your favorite integer (do not give us your phone number, pin, or other sensitive info)",
    "Geben Sie niemals Ihr Passwort weiter", "Ohne Passwort", "Kein Passwort nötig",
    "Ne communiquez jamais votre mot de passe", "Ne donnez pas votre code PIN", "No comparta su contraseña",
    "Não compartilhe sua senha", "Non condividere la password", "Никогда не сообщайте пароль",
    "Nie podawaj nikomu hasła", "请勿输入密码",
]


@pytest.mark.parametrize("text", ASKS)
def test_what_asks_for_a_secret_is_found(text):
    assert secret_named(text), text


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_what_does_not_is_let_be(text):
    assert secret_named(text) is None, (text, secret_named(text))


def test_a_negation_spares_only_the_clause_and_the_list_it_governs():
    assert secret_named("Do not give us your PIN. Now type your password") == "password"
    assert secret_named("Never give your PIN (enter the recovery phrase)") == "recovery phrase"
    assert secret_named("No need to worry: type the code we sent you").startswith("code (")


def test_names_and_sentences_are_read_alike():
    assert normalized("apiKey") == normalized("API_KEY") == normalized("api-key") == "api key"
    assert normalized("OTPCode") == "otp code" and normalized("Bestätigungs-Code") == "bestatigungs code"


# Field names and labels, as a page writes them: the content scripts read them with the same list.
LABELS = [*ASKS, *NOT_SECRETS, "user_password", "txtPwd", "loginPasswort", "Mot de passe oublié ?", "PIN code",
          "Postal PIN code", "Search", "E-mail", "Nom", "Benutzername", "ワンタイムパスワード", "otp-input-1"]


def test_the_content_scripts_read_field_names_with_the_same_list():
    script = f"""
    import {{ secretWordIn, normalized }} from {json.dumps(FIELDS_MODULE.as_uri())};
    let input = "";
    for await (const chunk of process.stdin) input += chunk;
    const kinds = ["password", "one_time_code"];
    process.stdout.write(JSON.stringify(JSON.parse(input).map((text) => [normalized(text), secretWordIn(text, kinds)])));
    """
    done = subprocess.run([shutil.which("node"), "--input-type=module", "-e", script], input=json.dumps(LABELS),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    for text, (spelt, found) in zip(LABELS, json.loads(done.stdout)):
        assert spelt == normalized(text), text
        assert found == secret_word_in(text, ("password", "one_time_code")), text
    assert sum(found is not None for _, found in json.loads(done.stdout)) > 60


@pytest.mark.parametrize("text", ["code 123", "zip code", "the zip code", "promo  code", "验证码", "邮政验证码 zip code",
                                  "zip , code", "a zip code and a code", "zip codes and the codes"])
def test_the_word_before_a_code_is_the_last_word_before_it_as_splitting_found_it(text):
    """Found from the code back (a long page of ZIP codes took time growing with its square), the
    word before each code word is what splitting everything before it gave."""
    from tabagent.secret_words import _CODE, _word_before

    words = normalized(text) if "  " not in text else text
    for found in _CODE.finditer(words):
        before = words[:found.start()].split()
        assert _word_before(words, found.start()) == (before[-1] if before else "")


def test_a_long_page_of_zip_and_promo_codes_names_no_code_and_one_secret_code_is_still_found():
    page = "zip code the promo code " * 8000
    assert not names_a_code(page)
    assert names_a_code(page + "your code 482913")
