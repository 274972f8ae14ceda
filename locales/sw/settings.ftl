# Lugha, nambari ya M-Pesa iliyohifadhiwa na pochi zilizohifadhiwa.

settings-title = Mipangilio yako
settings-language-current = Lugha: { $language ->
    [sw] Kiswahili
   *[en] Kiingereza
}
settings-phone-current = Nambari ya M-Pesa: { $phone }
settings-phone-none = Hakuna nambari ya M-Pesa iliyohifadhiwa.
settings-wallets-count = Pochi zilizohifadhiwa: { $count }
settings-button-language = 🌐 Lugha / Language
settings-button-phone = 📱 Nambari ya M-Pesa
settings-button-wallets = 👛 Pochi
settings-button-change = ✏️ Badilisha
settings-button-delete = 🗑️ Futa
settings-ask-language = Chagua lugha yako / Choose your language:
settings-language-saved = Sawa. Kuanzia sasa nitaandika kwa Kiswahili.
settings-ask-phone = Andika nambari yako ya M-Pesa (mfano 0712 345 678) au shiriki mawasiliano yako.
settings-phone-saved = Nambari ya M-Pesa imehifadhiwa.
settings-phone-deleted = Nambari ya M-Pesa imefutwa.
settings-wallets-none = Bado hakuna pochi iliyohifadhiwa.
settings-wallet-line = { $network }: { $address }
settings-ask-wallet-network = Chagua mtandao ili kuongeza, kubadilisha au kufuta pochi yake.
settings-wallet-none-for = Hakuna pochi ya { $network } iliyohifadhiwa.
settings-ask-wallet = Tuma anwani ya pochi ya { $network } ya kuhifadhi.
settings-wallet-saved = Pochi ya { $network } imehifadhiwa.
settings-wallet-deleted = Pochi ya { $network } imefutwa.
