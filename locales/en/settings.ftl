# Language, saved M-Pesa number and saved wallets.

settings-title = Your settings
settings-language-current = Language: { $language ->
    [sw] Kiswahili
   *[en] English
}
settings-phone-current = M-Pesa number: { $phone }
settings-phone-none = No M-Pesa number saved.
settings-wallets-count = Saved wallets: { $count }
settings-button-language = 🌐 Language / Lugha
settings-button-phone = 📱 M-Pesa number
settings-button-wallets = 👛 Wallets
settings-button-change = ✏️ Change
settings-button-delete = 🗑️ Delete
settings-ask-language = Choose your language / Chagua lugha yako:
settings-language-saved = Done. I will write in English from now on.
settings-ask-phone = Type your M-Pesa number (e.g. 0712 345 678) or share your contact.
settings-phone-saved = M-Pesa number saved.
settings-phone-deleted = M-Pesa number deleted.
settings-wallets-none = No wallets saved yet.
settings-wallet-line = { $network }: { $address }
settings-ask-wallet-network = Choose a network to add, change or delete its wallet.
settings-wallet-none-for = No { $network } wallet saved.
settings-ask-wallet = Send the { $network } wallet address to save.
settings-wallet-saved = { $network } wallet saved.
settings-wallet-deleted = { $network } wallet deleted.
